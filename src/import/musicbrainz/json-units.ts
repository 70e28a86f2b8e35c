/**
 * The JSON units of one input: a JSON-lines file (a MusicBrainz JSON dump: one entity per line)
 * gives one unit per non-blank line; a single JSON document (a WS/2 response, usually
 * pretty-printed) gives one unit. The choice is made by content: a file whose first non-blank
 * line starts with `{` and is not a whole JSON value is a single document, read whole up to
 * MAX_DOCUMENT_BYTES; any other file is JSON lines, read a line at a time.
 */
import { isUtf8 } from 'node:buffer';
import { ImportError } from '../import-error.js';
import { unitDigest } from '../stage/source-unit.js';
import type { ParsedUnit } from './entity.js';
import { splitLines } from './lines.js';

export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

export interface JsonUnit extends ParsedUnit {
  /** `line` for a JSON line, `document` for a single document. */
  readonly kind: 'line' | 'document';
  /** The input bytes the unit took (a line with its line end). */
  readonly bytes: number;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const isBlank = (bytes: Buffer): boolean => bytes.every((b) => b === 32 || b === 9 || b === 13 || b === 10);

/**
 * The units of `chunks`. `file` names the input in errors and `where` (`file` itself, or
 * `archive.tar.xz:mbdump/release` inside an archive); a line's unit is `where:line`.
 */
export async function* readJsonUnits(chunks: AsyncIterable<Uint8Array>, file: string, maxDocument = MAX_DOCUMENT_BYTES): AsyncGenerator<JsonUnit> {
  let mode: 'lines' | 'document' | undefined;
  let held: Buffer[] = []; // the document so far, or the blank lines before the first line
  let heldBytes = 0;
  let firstLine: { text: string; number: number } | undefined; // a first line that is not JSON, read as the start of a document
  const hold = (bytes: Buffer): void => {
    heldBytes += bytes.length;
    if (heldBytes > maxDocument) {
      const limit = `${maxDocument / 1024 / 1024} MiB`;
      if (firstLine) {
        // Most likely a JSON-lines dump whose first line is broken: say so, at that line.
        const error = syntaxError(undefined, firstLine.text, file, firstLine.number);
        throw new ImportError(error.code, error.place, `${error.detail}; nor is the file a single JSON document of at most ${limit}`);
      }
      throw new ImportError('E_IMPORT_FORMAT', { file }, `a single JSON document larger than ${limit}; MusicBrainz dumps hold one entity per line`);
    }
    held.push(bytes);
  };
  for await (const line of splitLines(chunks, file)) {
    if (mode === 'document') {
      hold(line.bytes);
      continue;
    }
    const content = line.number === 1 && line.content.subarray(0, 3).equals(BOM) ? line.content.subarray(3) : line.content;
    if (isBlank(content)) {
      if (mode === undefined) hold(line.bytes);
      continue;
    }
    const text = decode(content, file, line.number);
    let value = mode === undefined ? tryParse(text) : parseLine(text, file, line.number);
    if (mode === undefined) {
      if (value === FAILED && text.trimStart().startsWith('{')) {
        mode = 'document';
        if (failsBeforeEnd(text)) firstLine = { text, number: line.number };
        hold(line.bytes);
        continue;
      }
      if (value === FAILED) value = parseLine(text, file, line.number); // throws the line's syntax error
      mode = 'lines';
      held = [];
    }
    // The digest of the line's bytes, which are its text in UTF-8.
    yield { kind: 'line', value, file, line: line.number, where: `${file}:${line.number}`, digest: unitDigest(content), bytes: line.bytes.length };
  }
  if (mode === 'document') {
    const whole = Buffer.concat(held, heldBytes);
    const body = whole.subarray(0, 3).equals(BOM) ? whole.subarray(3) : whole;
    const text = decode(body, file, undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw syntaxError(e, text, file, undefined);
    }
    yield { kind: 'document', value, file, where: file, digest: unitDigest(whole), bytes: whole.length };
  }
}

const FAILED = Symbol('failed');

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return FAILED;
  }
}

function parseLine(text: string, file: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw syntaxError(e, text, file, line);
  }
}

function decode(bytes: Buffer, file: string, line: number | undefined): string {
  if (!isUtf8(bytes)) throw new ImportError('E_IMPORT_SYNTAX', { file, line }, 'not UTF-8 text');
  return bytes.toString('utf8');
}

/**
 * The E_IMPORT_SYNTAX for JSON.parse's error on `text` (undefined: parse it again to get it): at the line and column of the position
 * V8 gives ("... in JSON at position 12"; the end of the text for "Unexpected end of JSON
 * input"), or at the line alone when it gives none. `line` is the text's line in the file (a
 * JSON line), or undefined when `text` is the whole file.
 */
function syntaxError(error: unknown, text: string, file: string, line: number | undefined): ImportError {
  if (error === undefined) {
    try {
      JSON.parse(text);
    } catch (e) {
      error = e;
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  const at = /at position (\d+)/.exec(message);
  const position = at ? Number(at[1]) : message.startsWith('Unexpected end of JSON input') ? text.length : firstBadOffset(text);
  // V8 quotes the text in some messages ('Unexpected token }, "{"a":}" is not valid JSON'): not for a multi-MB line.
  const detail = (message.replace(/,\s*"[\s\S]*" is not valid JSON$/, '').replace(/ in JSON at position \d+.*$/, '') || 'not JSON').replace(
    /[\u0000-\u001f]/g,
    (c) => JSON.stringify(c).slice(1, -1),
  );
  if (position === undefined) return new ImportError('E_IMPORT_SYNTAX', { file, line }, `not JSON: ${detail}`);
  const lineStart = text.lastIndexOf('\n', position - 1) + 1;
  const lineInText = line === undefined ? countNewlines(text, lineStart) + 1 : line;
  const column = [...text.slice(lineStart, position)].length + 1;
  return new ImportError('E_IMPORT_SYNTAX', { file, line: lineInText, column }, `not JSON: ${detail}`);
}

/**
 * Where JSON.parse fails on `text` when its message gives no position ("Unexpected token"): the
 * shortest prefix that fails for another reason than ending too soon ends with the bad character.
 * Parsing is left to right, so a longer prefix fails too, and a binary search finds it in
 * log2(length) parses. Only run on an error.
 */
function firstBadOffset(text: string): number | undefined {
  const fails = (n: number): boolean => failsBeforeEnd(text.slice(0, n));
  if (!fails(text.length)) return undefined;
  let good = 0;
  let bad = text.length;
  while (bad - good > 1) {
    const mid = (good + bad) >>> 1;
    if (fails(mid)) bad = mid;
    else good = mid;
  }
  return bad - 1;
}

/** Whether `text` is not JSON for another reason than ending too soon (so it cannot be the start of a document). */
function failsBeforeEnd(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch (e) {
    const message = e instanceof Error ? e.message : '';
    if (message.startsWith('Unexpected end of JSON input')) return false;
    const at = /at position (\d+)/.exec(message);
    return at ? Number(at[1]) < text.length : true;
  }
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
