/**
 * Text as bytes whose byte order is JS string order (UTF-16 code units), so a byte sorter orders
 * text as `Array.prototype.sort` and `<` do. UTF-8 does not quite: a character above U+FFFF
 * (a surrogate pair in UTF-16, 0xD800-0xDFFF) sorts before U+E000-U+FFFF in code units but after
 * them in UTF-8. Writing each code unit on its own as UTF-8 would (CESU-8: a surrogate becomes
 * three bytes ED A0-BF xx) puts them back in code-unit order, and is plain UTF-8 for text
 * without surrogates, which is nearly all of it. It is also a prefix code: one string is a prefix
 * of another exactly when its bytes are.
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** Bytes `writeCodeUnitBytes` may need for `text`. */
export function maxCodeUnitBytes(text: string): number {
  return text.length * 3;
}

/** Writes `text` at `out[at..]` in code-unit order bytes; returns the bytes written. `out` must hold maxCodeUnitBytes(text). */
export function writeCodeUnitBytes(text: string, out: Buffer, at: number): number {
  if (!SURROGATE.test(text)) return out.write(text, at, 'utf8');
  let w = at;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) out[w++] = c;
    else if (c < 0x800) {
      out[w++] = 0xc0 | (c >> 6);
      out[w++] = 0x80 | (c & 0x3f);
    } else {
      out[w++] = 0xe0 | (c >> 12);
      out[w++] = 0x80 | ((c >> 6) & 0x3f);
      out[w++] = 0x80 | (c & 0x3f);
    }
  }
  return w - at;
}

/**
 * The same bytes, from text already in UTF-8 (a string column's bytes): copied as they are unless
 * they hold a four-byte sequence (a character above U+FFFF), which is rewritten as two surrogates.
 */
export function writeCodeUnitBytesFromUtf8(utf8: Buffer, out: Buffer, at: number): number {
  for (let i = 0; i < utf8.length; i++) {
    if (utf8[i] >= 0xf0) return writeCodeUnitBytes(utf8.toString('utf8'), out, at);
  }
  return utf8.copy(out, at);
}
