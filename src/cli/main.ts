import { Command } from 'commander';
import { CliError } from './cli-error.js';

const VERSION = '0.1.0';

/** Builds the `omm` program; each command lives in its own module and registers itself here. */
export async function buildProgram(): Promise<Command> {
  const program = new Command();
  program
    .name('omm')
    .description('Compile a raw music catalog into an immutable snapshot, and inspect or serve it.')
    .version(VERSION)
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });
  const registrations = await Promise.all([
    import('./compile-command.js'),
    import('./inspect-command.js'),
    import('./verify-command.js'),
    import('./import-command.js'),
    import('./generate-command.js'),
    import('./start-command.js'),
    import('./serve-command.js'),
    import('./diff-command.js'),
  ]);
  for (const module of registrations) module.register(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = await buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`omm: ${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    const coded = err as { code?: string; message?: string };
    if (coded && typeof coded.code === 'string' && coded.code.startsWith('E_')) {
      process.stderr.write(`omm: ${coded.code}: ${coded.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}
