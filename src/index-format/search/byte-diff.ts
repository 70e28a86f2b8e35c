/**
 * Whether the UTF-8 string bytes[from, from + length) and `key` differ by at most `slack` bytes
 * on each side once their common byte prefix and common byte suffix are set aside (the two
 * never overlapping). A necessary condition for being one edit apart, tested on the bytes before
 * any string is decoded: one code point changed, added or dropped leaves at most 4 bytes on each
 * side, two neighbours swapped at most 8. Unrelated strings usually fail it on their first and
 * last bytes.
 */
export function differentBytesWithin(bytes: Uint8Array, from: number, length: number, key: Uint8Array, slack: number): boolean {
  if (Math.abs(length - key.length) > slack) return false;
  const shorter = Math.min(length, key.length);
  let prefix = 0;
  while (prefix < shorter && bytes[from + prefix] === key[prefix]) prefix++;
  if (prefix === shorter) return true;
  // The suffix stops where the prefix ends, so prefix + suffix never passes the shorter length.
  const most = shorter - prefix;
  let suffix = 0;
  while (suffix < most && bytes[from + length - 1 - suffix] === key[key.length - 1 - suffix]) suffix++;
  return length - prefix - suffix <= slack && key.length - prefix - suffix <= slack;
}

/** Bytes two UTF-8 strings one edit apart can differ by on each side (a swap of two 4-byte code points). */
export const ONE_EDIT_BYTES = 8;
