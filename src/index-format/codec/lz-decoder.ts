import { LZ_OUTPUT_SLACK, lzDecode, lzDecodedLength } from './lz-codec.js';
import { lzWasmInstance, lzWasmMemory, lzWasmModule, type WasmDecode, type WasmMemory } from './lz-wasm.js';

/**
 * Decodes the records of one compressed table shard against its dictionary into a buffer of its
 * own: `decode` returns the record's length (or -1 when the bytes are not a record), and the
 * record is then `output[outputAt, outputAt + length)` until the next call (`outputBytes` is the
 * same memory as a plain Uint8Array, whose subarrays are cheaper to make than a Buffer's).
 * Callers copy it out or unpack it before decoding another.
 */
export interface LzDecoder {
  decode(src: Uint8Array, start: number, end: number): number;
  /** The same, for a record whose length prefix the caller has read already. */
  decodeKnown(src: Uint8Array, start: number, end: number, length: number): number;
  readonly output: Buffer;
  readonly outputBytes: Uint8Array;
  readonly outputAt: number;
}

/**
 * The WebAssembly decoder when the runtime has WebAssembly, else the reference one.
 * `OMM_LZ_DECODER=js` picks the reference decoder (tests run both). A record that says it is
 * longer than `maxLength` (the shard's largest) is refused before any memory is reserved for it.
 */
export function createLzDecoder(dictionary: Uint8Array, maxLength: number): LzDecoder {
  const module = process.env.OMM_LZ_DECODER === 'js' ? null : lzWasmModule();
  return module ? new WasmLzDecoder(module, dictionary, maxLength) : new JsLzDecoder(dictionary, maxLength);
}

const PAGE = 65_536;
const INPUT_SLACK = 16;

/** Memory: [dictionary][output + slack][input + slack], grown (and the areas moved) for a larger record. */
class WasmLzDecoder implements LzDecoder {
  private readonly memory: WasmMemory;
  private readonly run: WasmDecode;
  private bytes!: Uint8Array;
  output!: Buffer;
  outputBytes!: Uint8Array;
  readonly outputAt: number;
  private outputRoom = 0;
  private inputAt = 0;
  private inputRoom = 0;

  constructor(
    module: object,
    dictionary: Uint8Array,
    private readonly maxLength: number,
  ) {
    this.outputAt = dictionary.length;
    this.memory = lzWasmMemory(Math.ceil((dictionary.length + 4 * 4096) / PAGE));
    this.run = lzWasmInstance(module, this.memory);
    this.layOut(0, 0);
    this.bytes.set(dictionary, 0);
  }

  decode(src: Uint8Array, start: number, end: number): number {
    return this.decodeKnown(src, start, end, lzDecodedLength(src, start, end));
  }

  decodeKnown(src: Uint8Array, start: number, end: number, length: number): number {
    if (length < 0 || length > this.maxLength) return -1;
    const packed = end - start;
    if (length > this.outputRoom || packed > this.inputRoom) this.layOut(length, packed);
    this.bytes.set(src.subarray(start, end), this.inputAt);
    return this.run(this.inputAt, this.inputAt + packed, this.outputAt, this.outputAt + length);
  }

  /** Sizes the output and input areas for at least these lengths, growing the memory if needed. */
  private layOut(length: number, packed: number): void {
    this.outputRoom = Math.max(this.outputRoom, length, 4096);
    this.inputRoom = Math.max(this.inputRoom, packed, 4096);
    this.inputAt = this.outputAt + this.outputRoom + LZ_OUTPUT_SLACK;
    const needed = this.inputAt + this.inputRoom + INPUT_SLACK;
    const have = this.memory.buffer.byteLength;
    if (needed > have) this.memory.grow(Math.ceil((needed - have) / PAGE));
    // Growing detaches the old views.
    this.bytes = new Uint8Array(this.memory.buffer);
    this.outputBytes = this.bytes;
    this.output = Buffer.from(this.memory.buffer);
  }
}

class JsLzDecoder implements LzDecoder {
  output = Buffer.alloc(4096);
  outputBytes = new Uint8Array(this.output.buffer, this.output.byteOffset, this.output.length);
  readonly outputAt = 0;

  constructor(
    private readonly dictionary: Uint8Array,
    private readonly maxLength: number,
  ) {}

  decode(src: Uint8Array, start: number, end: number): number {
    return this.decodeKnown(src, start, end, lzDecodedLength(src, start, end));
  }

  decodeKnown(src: Uint8Array, start: number, end: number, length: number): number {
    if (length < 0 || length > this.maxLength) return -1;
    if (length > this.output.length) {
      this.output = Buffer.alloc(length + (length >> 1));
      this.outputBytes = new Uint8Array(this.output.buffer, this.output.byteOffset, this.output.length);
    }
    return lzDecode(src, start, end, this.dictionary, this.outputBytes, 0);
  }
}
