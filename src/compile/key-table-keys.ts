import { closeSync, openSync, writeSync } from 'node:fs';
import { MAX_KEY_BYTES } from '../index-format/tables/key-table.js';

/** Bytes gathered before a write to the key file. */
const KEY_BLOCK = 1 << 20;

/** The largest offset a sort record holds (a u32). */
const MAX_KEY_OFFSET = 0xffffffff;

/**
 * The keys of a key table in the order they were added, as `[u8 length][UTF-8 bytes]`: the same
 * shape as the head of an entry, so an entry's key is copied from here as it is. A sort record
 * names a key by its offset in this file, and `write` reads it back through a mapping.
 */
export class KeyFileWriter {
  private readonly fd: number;
  private readonly block = Buffer.allocUnsafe(KEY_BLOCK);
  private filled = 0;
  private closed = false;
  /** Bytes appended: the offset of the next key. */
  bytes = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  /** Appends a key and returns its offset, or -1 (appending nothing) when it is not 1..255 UTF-8 bytes. */
  append(key: string): number {
    const units = key.length;
    // A code unit is 1 to 3 UTF-8 bytes (a surrogate pair, 2 units, is 4).
    if (units === 0 || units > MAX_KEY_BYTES) return -1;
    if (this.filled + 1 + units * 3 > KEY_BLOCK) this.flush();
    const block = this.block;
    const at = this.filled + 1;
    // ASCII (ids, ISRCs, UPCs) is copied by a loop, which costs less than a call to the encoder.
    let length = units;
    for (let i = 0; i < units; i++) {
      const c = key.charCodeAt(i);
      if (c >= 0x80) {
        length = block.write(key, at, 'utf8');
        break;
      }
      block[at + i] = c;
    }
    if (length > MAX_KEY_BYTES) return -1;
    const offset = this.bytes;
    if (offset > MAX_KEY_OFFSET) throw new Error(`key file ${this.path} passes 4 GiB`);
    block[this.filled] = length;
    this.filled += 1 + length;
    this.bytes += 1 + length;
    return offset;
  }

  private flush(): void {
    for (let off = 0; off < this.filled; ) off += writeSync(this.fd, this.block, off, this.filled - off);
    this.filled = 0;
  }

  /** Writes what is left and closes the file (once). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }
}
