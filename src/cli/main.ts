import { Command } from 'commander';
import { CliError } from './cli-error.js';

const VERSION = '0.1.0';

/** The commands, each in its own module that registers itself. */
const COMMANDS: Readonly<Record<string, () => Promise<{ register(program: Command): void }>>> = {
  compile: () => import('./compile-command.js'),
  compact: () => import('./compact-command.js'),
  inspect: () => import('./inspect-command.js'),
  verify: () => import('./verify-command.js'),
  import: () => import('./import-command.js'),
  generate: () => import('./generate-command.js'),
  start: () => import('./start-command.js'),
  serve: () => import('./serve-command.js'),
  diff: () => import('./diff-command.js'),
  takedown: () => import('./takedown-command.js'),
  publish: () => import('./publish-command.js'),
};

/**
 * Builds the `omm` program. With `only` naming a command, that command alone is loaded: a server
 * starts without loading the compiler, the importers and the rest (about 120 ms of a cold start);
 * anything else (help, an unknown word) loads them all.
 */
export async function buildProgram(only?: string): Promise<Command> {
  const program = new Command();
  program
    .name('omm')
    .description('Compile a raw music catalog into an immutable snapshot, and inspect or serve it.')
    .version(VERSION)
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });
  const names = only !== undefined && Object.hasOwn(COMMANDS, only) ? [only] : Object.keys(COMMANDS);
  const registrations = await Promise.all(names.map((name) => COMMANDS[name]()));
  for (const module of registrations) module.register(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = await buildProgram(argv[2]);
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
      const message = coded.message ?? '';
      // Errors that name their code themselves (ImportError) are printed as they are.
      process.stderr.write(message.endsWith(`[${coded.code}]`) ? `omm: ${message}\n` : `omm: ${coded.code}: ${message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}
