import { StoredView } from '../catalog/views.js';

/** UTF-8 JSON already written: a view's bytes, or a stored view that writes them into the response. */
export type JsonBytes = Buffer | StoredView;

/**
 * JSON that is partly written already: a pre-rendered view from the snapshot is spliced into a
 * response as its bytes, with no decode and no JSON.stringify. Renderers return a RawJson where a
 * resource has a stored view; `toJsonBytes` writes a response holding any of them.
 */
export class RawJson {
  /** How many have been made; the handler compares it to know whether a response holds any. */
  static made = 0;

  /** Chunks of JSON text, in order: UTF-8 bytes (a view) or strings. */
  constructor(readonly chunks: readonly (JsonBytes | string)[]) {
    RawJson.made++;
  }
}

/** Collects JSON text as bytes and strings, merging neighbouring strings. */
class JsonOut {
  private text = '';

  constructor(private readonly parts: (JsonBytes | string)[] = []) {}

  write(text: string): void {
    this.text += text;
  }

  bytes(bytes: JsonBytes): void {
    if (this.text) {
      this.parts.push(this.text);
      this.text = '';
    }
    this.parts.push(bytes);
  }

  /** Ends the text: every chunk is in `parts`. */
  flush(): (JsonBytes | string)[] {
    if (this.text) this.parts.push(this.text);
    this.text = '';
    return this.parts;
  }

  /** The text, ready to be written: its length measured once. */
  toText(): JsonText {
    return new JsonText(this.flush());
  }
}

/**
 * JSON text ready to be written: its length in UTF-8 bytes, and `writeInto`, which lays it into
 * a buffer it is given (a stored view decompressing straight into it). A server that assembles a
 * response in a buffer of its own writes the body there, with no buffer for the body alone.
 */
export class JsonText {
  readonly byteLength: number;

  constructor(private readonly parts: readonly (JsonBytes | string)[]) {
    let total = 0;
    for (const p of parts) total += typeof p === 'string' ? (shortAscii(p) ? p.length : Buffer.byteLength(p)) : p.length;
    this.byteLength = total;
  }

  /** Writes the text at `at` (byteLength bytes of room); returns where it ends. */
  writeInto(out: Buffer, at: number): number {
    for (const p of this.parts) {
      if (typeof p === 'string') {
        if (shortAscii(p)) {
          for (let i = 0; i < p.length; i++) out[at + i] = p.charCodeAt(i);
          at += p.length;
        } else at += out.write(p, at);
      } else {
        if (p instanceof StoredView) p.copyTo(out, at);
        else out.set(p, at);
        at += p.length;
      }
    }
    return at;
  }

  toBuffer(): Buffer {
    const out = Buffer.allocUnsafe(this.byteLength);
    this.writeInto(out, 0);
    return out;
  }
}

/**
 * Whether a string is short and ASCII: then its bytes are its char codes, written by a loop. The
 * text between views (`,`, `]}`, `{"data":[`, an included relationship's meta and the next one's
 * key, up to about 70 characters) is mostly such, and for it the loop is cheaper than the two
 * calls into the runtime that Buffer.byteLength and write() make.
 */
function shortAscii(text: string): boolean {
  if (text.length > 96) return false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** `"key":` for each key seen (the keys of responses are a small fixed set). */
const keyTexts = new Map<string, string>();
function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`;
    if (keyTexts.size < 10_000) keyTexts.set(key, text);
  }
  return text;
}

function append(value: unknown, out: JsonOut): void {
  if (value instanceof RawJson) {
    for (const chunk of value.chunks) {
      if (typeof chunk === 'string') out.write(chunk);
      else out.bytes(chunk);
    }
  } else if (Array.isArray(value)) {
    out.write('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.write(',');
      const item = value[i];
      // As JSON.stringify writes them: an array keeps its length, with null in the holes.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') out.write('null');
      else append(item, out);
    }
    out.write(']');
  } else if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    out.write('{');
    let first = true;
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      if (!first) out.write(',');
      out.write(keyText(key));
      first = false;
      append(item, out);
    }
    out.write('}');
  } else if (typeof value === 'number') {
    // What JSON.stringify writes for a number, without the call: its shortest form, or null.
    out.write(Number.isFinite(value) ? String(value) : 'null');
  } else {
    out.write(JSON.stringify(value) ?? 'null');
  }
}

/**
 * The UTF-8 JSON of `value`, byte for byte what JSON.stringify would write, with RawJson spliced
 * in, to be written where the caller says. Stored views in it read the snapshot when written:
 * write it before the snapshot's lease ends.
 */
export function toJsonText(value: unknown): JsonText {
  const out = new JsonOut();
  append(value, out);
  return out.toText();
}

/** toJsonText's bytes in a buffer of their own. */
export function toJsonBytes(value: unknown): Buffer {
  return toJsonText(value).toBuffer();
}

/** A resource's view with `,"relationships":{...}` added before its closing brace. */
export function withRelationships(view: JsonBytes, relationships: unknown): RawJson {
  const out = new JsonOut([view instanceof StoredView ? view.withoutLastByte() : view.subarray(0, view.length - 1)]);
  out.write(',"relationships":');
  append(relationships, out);
  out.write('}');
  return new RawJson(out.flush());
}
