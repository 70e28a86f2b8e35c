import { inputFiles } from '../input-files.js';

const isXml = (name: string): boolean => name.toLowerCase().endsWith('.xml');

/**
 * The message files of the inputs, in order (inputFiles): a file as given, a directory's `*.xml`
 * files at any depth.
 */
export async function* messageFiles(inputs: readonly string[]): AsyncGenerator<string> {
  for await (const file of inputFiles(inputs)) if (file.named || isXml(file.path)) yield file.path;
}
