/**
 * Writes plain JSON values as UTF-8 bytes, byte for byte what `Buffer.from(JSON.stringify(v))`
 * gives, in one pass into a reused buffer. The compile renders millions of views; on Node 20,
 * JSON.stringify of a song's view ran at ~100 MB/s and the UTF-8 copy after it cost half as much
 * again. Values it does not write itself (a toJSON method, a class instance, a bigint) go through
 * JSON.stringify, so nothing is written differently (json-writer.test.ts compares the two).
 */
export class JsonWriter {
  private buf: Buffer = Buffer.alloc(1 << 16);
  private at = 0;
  /** `"key":` as bytes, for the keys seen (views have a small fixed set). */
  private readonly keys = new Map<string, Uint8Array>();

  /** The JSON of `value`; a view of this writer's buffer, valid until its next call. */
  bytes(value: unknown): Uint8Array {
    this.at = 0;
    if (!this.value(value)) this.ascii('null');
    return this.buf.subarray(0, this.at);
  }

  /** Writes `value`; false when JSON.stringify would write nothing for it (undefined, a function). */
  private value(value: unknown): boolean {
    switch (typeof value) {
      case 'string':
        this.string(value);
        return true;
      case 'number':
        this.number(value);
        return true;
      case 'boolean':
        this.ascii(value ? 'true' : 'false');
        return true;
      case 'object':
        if (value === null) this.ascii('null');
        else if (Array.isArray(value)) this.array(value);
        else if (Object.getPrototypeOf(value) === Object.prototype && typeof (value as { toJSON?: unknown }).toJSON !== 'function')
          this.object(value as Record<string, unknown>);
        else return this.stringified(value);
        return true;
      case 'undefined':
      case 'function':
      case 'symbol':
        return false;
      default:
        return this.stringified(value);
    }
  }

  private array(items: readonly unknown[]): void {
    this.byte(0x5b);
    for (let i = 0; i < items.length; i++) {
      if (i > 0) this.byte(0x2c);
      if (!this.value(items[i])) this.ascii('null');
    }
    this.byte(0x5d);
  }

  private object(fields: Record<string, unknown>): void {
    this.byte(0x7b);
    let first = true;
    for (const key in fields) {
      const item = fields[key];
      const kind = typeof item;
      if (kind === 'undefined' || kind === 'function' || kind === 'symbol') continue;
      if (!first) this.byte(0x2c);
      first = false;
      this.key(key);
      this.value(item);
    }
    this.byte(0x7d);
  }

  private key(key: string): void {
    let bytes = this.keys.get(key);
    if (bytes === undefined) {
      bytes = Buffer.from(`${JSON.stringify(key)}:`);
      if (this.keys.size < 10_000) this.keys.set(key, bytes);
    }
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  private number(n: number): void {
    if (Number.isSafeInteger(n) && n >= 0) {
      this.room(16);
      if (n < 10) {
        this.buf[this.at++] = 0x30 + n;
        return;
      }
      let digits = 1;
      for (let p = 10; p <= n; p *= 10) digits++;
      let at = this.at + digits;
      this.at = at;
      while (n > 0) {
        const q = Math.floor(n / 10);
        this.buf[--at] = 0x30 + (n - q * 10);
        n = q;
      }
      return;
    }
    this.ascii(Number.isFinite(n) ? String(n) : 'null');
  }

  /** A string as JSON.stringify quotes it: `"` `\` and controls escaped, lone surrogates as \uXXXX. */
  private string(s: string): void {
    const length = s.length;
    this.room(length * 6 + 2);
    const buf = this.buf;
    if (length >= NATIVE_FROM && !NEEDS_CARE.test(s)) {
      // Printable ASCII without a quote or backslash: its bytes are its char codes, copied natively.
      buf[this.at] = 0x22;
      const written = buf.write(s, this.at + 1, 'latin1');
      buf[this.at + 1 + written] = 0x22;
      this.at += written + 2;
      return;
    }
    let at = this.at;
    buf[at++] = 0x22;
    for (let i = 0; i < length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c !== 0x22 && c !== 0x5c) buf[at++] = c;
        else at = escapeByte(buf, at, c);
      } else if (c < 0x800) {
        buf[at++] = 0xc0 | (c >> 6);
        buf[at++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < length ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          buf[at++] = 0xf0 | (cp >> 18);
          buf[at++] = 0x80 | ((cp >> 12) & 0x3f);
          buf[at++] = 0x80 | ((cp >> 6) & 0x3f);
          buf[at++] = 0x80 | (cp & 0x3f);
          i++;
        } else at = unicodeEscape(buf, at, c);
      } else {
        buf[at++] = 0xe0 | (c >> 12);
        buf[at++] = 0x80 | ((c >> 6) & 0x3f);
        buf[at++] = 0x80 | (c & 0x3f);
      }
    }
    buf[at++] = 0x22;
    this.at = at;
  }

  /** Text of ASCII characters only (literals, number forms). */
  private ascii(text: string): void {
    this.room(text.length);
    for (let i = 0; i < text.length; i++) this.buf[this.at++] = text.charCodeAt(i);
  }

  private stringified(value: unknown): boolean {
    const text = JSON.stringify(value);
    if (text === undefined) return false;
    const bytes = Buffer.from(text);
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
    return true;
  }

  private byte(b: number): void {
    this.room(1);
    this.buf[this.at++] = b;
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const grown = Buffer.alloc(Math.max(this.buf.length * 2, this.at + bytes));
    grown.set(this.buf.subarray(0, this.at));
    this.buf = grown;
  }
}

/** From this length a string is checked by a regular expression and copied natively when it can be. */
const NATIVE_FROM = 24;
const NEEDS_CARE = /[\u0000-\u001f"\\\u0080-\uffff]/;
const SHORT_ESCAPES: Record<number, number> = { 0x08: 0x62, 0x09: 0x74, 0x0a: 0x6e, 0x0c: 0x66, 0x0d: 0x72, 0x22: 0x22, 0x5c: 0x5c };
const HEX = '0123456789abcdef';

function escapeByte(buf: Uint8Array, at: number, c: number): number {
  const short = SHORT_ESCAPES[c];
  if (short === undefined) return unicodeEscape(buf, at, c);
  buf[at++] = 0x5c;
  buf[at++] = short;
  return at;
}

function unicodeEscape(buf: Uint8Array, at: number, c: number): number {
  buf[at++] = 0x5c;
  buf[at++] = 0x75;
  buf[at++] = HEX.charCodeAt(c >> 12);
  buf[at++] = HEX.charCodeAt((c >> 8) & 0xf);
  buf[at++] = HEX.charCodeAt((c >> 4) & 0xf);
  buf[at++] = HEX.charCodeAt(c & 0xf);
  return at;
}
