/**
 * JSON that is partly written already: a pre-rendered view from the snapshot is spliced into a
 * response as its bytes, with no decode and no JSON.stringify. Renderers return a RawJson where a
 * resource has a stored view; `toJsonBytes` writes a response holding any of them.
 */
export class RawJson {
  /** How many have been made; the handler compares it to know whether a response holds any. */
  static made = 0;

  /** Chunks of JSON text, in order: UTF-8 bytes (a view) or strings. */
  constructor(readonly chunks: readonly (Buffer | string)[]) {
    RawJson.made++;
  }
}

interface JsonSink {
  write(text: string): void;
  bytes(bytes: Buffer): void;
}

/** Collects JSON text as Buffers and strings, merging neighbouring strings. */
class JsonOut implements JsonSink {
  private readonly parts: (Buffer | string)[] = [];
  private text = '';

  write(text: string): void {
    this.text += text;
  }

  bytes(bytes: Buffer): void {
    if (this.text) {
      this.parts.push(this.text);
      this.text = '';
    }
    this.parts.push(bytes);
  }

  toBuffer(): Buffer {
    if (this.text) this.parts.push(this.text);
    let total = 0;
    for (const p of this.parts) total += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
    const out = Buffer.allocUnsafe(total);
    let at = 0;
    for (const p of this.parts) at += typeof p === 'string' ? out.write(p, at) : p.copy(out, at);
    return out;
  }
}

function append(value: unknown, out: JsonSink): void {
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
      out.write(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
      first = false;
      append(item, out);
    }
    out.write('}');
  } else {
    out.write(JSON.stringify(value) ?? 'null');
  }
}

/** The UTF-8 JSON of `value`, byte for byte what JSON.stringify would write, with RawJson spliced in. */
export function toJsonBytes(value: unknown): Buffer {
  const out = new JsonOut();
  append(value, out);
  return out.toBuffer();
}

/** A resource's view with `,"relationships":{...}` added before its closing brace. */
export function withRelationships(view: Buffer, relationships: unknown): RawJson {
  const out: (Buffer | string)[] = [view.subarray(0, view.length - 1), ',"relationships":'];
  collect(relationships, out);
  out.push('}');
  return new RawJson(out);
}

/** Appends the chunks of `value` to `out` (the relationships of a view are mostly views). */
function collect(value: unknown, out: (Buffer | string)[]): void {
  append(value, { write: (text) => out.push(text), bytes: (bytes) => out.push(bytes) });
}
