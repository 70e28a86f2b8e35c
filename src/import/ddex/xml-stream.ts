import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { ImportError } from '../import-error.js';
import { pathStep, type XNode } from './xnode.js';

/** What the streaming reader asks of the format it reads. */
export interface XmlHandlers {
  /** The root element: throw an E_IMPORT_FORMAT ImportError when it is not one this reader takes. */
  root(name: string, uri: string, attrs: Readonly<Record<string, string>>, place: { line: number; column: number }): void;
  /** Whether the element at `names` (local names from the root) is an item to build a tree for. */
  capture(names: readonly string[]): boolean;
  /** A captured item, complete. */
  item(node: XNode): void;
  /** An element that is not captured (nor inside an item) opens or closes. */
  open?(names: readonly string[]): void;
  close?(names: readonly string[]): void;
}

export interface StreamedFile {
  /** Bytes read, BOM included. */
  readonly bytes: number;
  /** Hex SHA-256 of those bytes (the same as unitDigest of the whole file). */
  readonly digest: string;
}

const CHUNK = 64 * 1024;
const UTF8_NAMES = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

interface Frame {
  readonly name: string;
  readonly index: number;
  counts: Map<string, number> | null;
  readonly node: XNode | null;
  readonly isItem: boolean;
}

/**
 * Streams one XML file through saxes in chunks, building a small tree only for the elements the
 * handlers capture, and hashing the bytes as they pass. A leading UTF-8 BOM is dropped. Errors
 * name `file` as given: E_IMPORT_FORMAT before the root element opens (the
 * input is not XML at all) or for an encoding other than UTF-8, E_IMPORT_SYNTAX after (malformed
 * or truncated XML, with saxes' line and column and the element path open at that point),
 * E_IMPORT_IO when the file cannot be read.
 */
export async function streamXml(file: string, handlers: XmlHandlers): Promise<StreamedFile> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: Frame[] = [];
  const names: string[] = [];
  let rootSeen = false;

  // saxes pops (and reports closed) the element a mismatched close tag names before it fails.
  let justClosed: Frame | undefined;
  const openPath = (): string => stack.map((f) => pathStep(f.name, f.index)).join('/');
  const fail = (message: string): never => {
    const code = rootSeen ? 'E_IMPORT_SYNTAX' : 'E_IMPORT_FORMAT';
    const detail = rootSeen ? `malformed XML: ${message}` : `not an XML document: ${message}`;
    const open = justClosed && message.startsWith('unexpected close tag') ? [...stack, justClosed] : stack;
    const path = open.map((f) => pathStep(f.name, f.index)).join('/');
    throw new ImportError(code, { file, line: parser.line, column: parser.column, path: path || undefined }, detail);
  };

  parser.on('error', (err) => fail(err.message.replace(/^\d+:\d+: /, '')));
  parser.on('xmldecl', (decl) => {
    if (decl.encoding !== undefined && !UTF8_NAMES.has(decl.encoding.toLowerCase())) {
      throw new ImportError(
        'E_IMPORT_FORMAT',
        { file, line: parser.line, column: parser.column },
        `encoding ${decl.encoding} is not supported: DDEX messages are read as UTF-8`,
      );
    }
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) if (a.uri === '') attrs[a.local] = a.value;
    const place = { line: parser.line, column: parser.column + 1 };
    const parent = stack[stack.length - 1];
    let index = 1;
    if (parent) {
      parent.counts ??= new Map();
      index = (parent.counts.get(tag.local) ?? 0) + 1;
      parent.counts.set(tag.local, index);
    } else {
      rootSeen = true;
      handlers.root(tag.local, tag.uri, attrs, place);
    }
    names.push(tag.local);
    if (parent?.node) {
      const node: XNode = { name: tag.local, attrs, children: [], text: '', ...place, parent: parent.node, index };
      parent.node.children.push(node);
      stack.push({ name: tag.local, index, counts: null, node, isItem: false });
    } else if (parent && handlers.capture(names)) {
      const node: XNode = { name: tag.local, attrs, children: [], text: '', ...place, parent: null, index, parentPath: openPath() };
      stack.push({ name: tag.local, index, counts: null, node, isItem: true });
    } else {
      stack.push({ name: tag.local, index, counts: null, node: null, isItem: false });
      handlers.open?.(names);
    }
  });
  const onText = (text: string): void => {
    const node = stack[stack.length - 1]?.node;
    if (node && node.children.length === 0) node.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const frame = stack.pop()!;
    justClosed = frame;
    if (frame.node) {
      if (frame.node.children.length > 0) frame.node.text = '';
      if (frame.isItem) handlers.item(frame.node);
    } else {
      handlers.close?.(names);
    }
    names.pop();
  });

  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let bytes = 0;
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: CHUNK }) as AsyncIterable<Buffer>) {
      if (bytes === 0 && chunk.length >= 2 && ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff))) {
        throw new ImportError('E_IMPORT_FORMAT', { file }, 'the file is UTF-16: DDEX messages are read as UTF-8');
      }
      bytes += chunk.length;
      hash.update(chunk);
      parser.write(decode(decoder, chunk, false, fail));
    }
    const rest = decode(decoder, new Uint8Array(0), true, fail);
    if (rest) parser.write(rest);
    parser.close();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // Only the file system's errors are I/O errors; anything else (ImportErrors included) goes up as it is.
    if (err instanceof ImportError || typeof e?.code !== 'string' || e.syscall === undefined) throw err;
    throw new ImportError('E_IMPORT_IO', { file }, `cannot read the file: ${e.code}`);
  }
  return { bytes, digest: hash.digest('hex') };
}

function decode(decoder: TextDecoder, chunk: Uint8Array, last: boolean, fail: (message: string) => never): string {
  try {
    return decoder.decode(chunk, { stream: !last });
  } catch {
    return fail('bytes that are not UTF-8');
  }
}
