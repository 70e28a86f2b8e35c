import { LZ_MIN_MATCH } from './lz-codec.js';

/**
 * The omm-lz decoder (lz-codec.ts) as one WebAssembly function, assembled here from the
 * structured calls below (no toolchain, no binary checked in). It exists for speed: a view of a
 * song is ~40 sequences, and in JavaScript each costs a few unpredictable branches and a byte
 * loop (0.8-1 µs a view); compiled WebAssembly copies 16 bytes at a time (0.2-0.3 µs), which is
 * what keeps a compressed view about as fast to serve as a stored one (docs/scale.md). lzDecode in
 * lz-codec.ts is the reference it must agree with (lz-codec.test.ts checks both on the same
 * bytes).
 *
 * decode(src, srcEnd, out, outLimit) -> length, or -1 for bytes that are not a record.
 * Memory: the dictionary at 0, the output right after it (so a match reaches into the
 * dictionary by plain subtraction), the input after the output. Copies may write up to 31
 * bytes past the record's end and read up to 16 past the input's: both areas keep slack.
 */

const enum Op {
  Block = 0x02,
  Loop = 0x03,
  If = 0x04,
  Else = 0x05,
  End = 0x0b,
  Br = 0x0c,
  BrIf = 0x0d,
  Return = 0x0f,
  LocalGet = 0x20,
  LocalSet = 0x21,
  LocalTee = 0x22,
  I64Load = 0x29,
  I32Load8U = 0x2d,
  I32Load16U = 0x2f,
  I64Store = 0x37,
  I32Store8 = 0x3a,
  I32Const = 0x41,
  I32Eqz = 0x45,
  I32Eq = 0x46,
  I32Ne = 0x47,
  I32GtU = 0x4b,
  I32GeU = 0x4f,
  I32Add = 0x6a,
  I32Sub = 0x6b,
  I32And = 0x71,
  I32ShrU = 0x76,
  /** Prefix of the SIMD instructions: v128.load is 0xfd 0x00, v128.store 0xfd 0x0b. */
  Simd = 0xfd,
}
const V128_LOAD = 0x00;
const V128_STORE = 0x0b;
const EMPTY_BLOCK = 0x40;
const I32 = 0x7f;

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    const b = n & 0x7f;
    n >>>= 7;
    out.push(n ? b | 0x80 : b);
  } while (n);
  return out;
};
const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
};

/** A function body written as structured calls; branches name their target block. */
class Body {
  readonly bytes: number[] = [];
  private readonly labels: (string | null)[] = [];

  op(...bytes: number[]): this {
    this.bytes.push(...bytes);
    return this;
  }
  get(local: number): this {
    return this.op(Op.LocalGet, local);
  }
  set(local: number): this {
    return this.op(Op.LocalSet, local);
  }
  tee(local: number): this {
    return this.op(Op.LocalTee, local);
  }
  i32(value: number): this {
    return this.op(Op.I32Const, ...sleb(value));
  }
  /** local += value */
  add(local: number, value: number): this {
    return this.get(local).i32(value).op(Op.I32Add).set(local);
  }
  block(label: string, body: () => void): this {
    return this.nest(Op.Block, label, body);
  }
  loop(label: string, body: () => void): this {
    return this.nest(Op.Loop, label, body);
  }
  /** Pops a condition; runs `then` when it is not 0, else `otherwise`. */
  if(then: () => void, otherwise?: () => void): this {
    this.op(Op.If, EMPTY_BLOCK);
    this.labels.push(null);
    then();
    if (otherwise) {
      this.op(Op.Else);
      otherwise();
    }
    this.labels.pop();
    return this.op(Op.End);
  }
  br(label: string): this {
    return this.op(Op.Br, this.depth(label));
  }
  brIf(label: string): this {
    return this.op(Op.BrIf, this.depth(label));
  }

  private nest(kind: Op, label: string, body: () => void): this {
    this.op(kind, EMPTY_BLOCK);
    this.labels.push(label);
    body();
    this.labels.pop();
    return this.op(Op.End);
  }
  private depth(label: string): number {
    const at = this.labels.lastIndexOf(label);
    if (at < 0) throw new Error(`no enclosing block ${label}`);
    return this.labels.length - 1 - at;
  }
}

// Parameters, then locals.
const SRC = 0;
const SRC_END = 1;
const OUT = 2;
const OUT_LIMIT = 3;
const O = 4;
const TOKEN = 5;
const LITERALS = 6;
const LENGTH = 7;
const FROM = 8;
const DISTANCE = 9;
const COPY_END = 10;
const BYTE = 11;
const LOCALS = 8;

function decodeBody(): number[] {
  const f = new Body();
  /** Adds a length's continuation bytes (each 255 but the last) to `local`. */
  const lengthTail = (local: number) =>
    f.loop('tail', () => {
      f.get(SRC).get(SRC_END).op(Op.I32GeU).brIf('fail');
      f.get(SRC).op(Op.I32Load8U, 0, 0).tee(BYTE).get(local).op(Op.I32Add).set(local);
      f.add(SRC, 1);
      f.get(BYTE).i32(255).op(Op.I32Eq).brIf('tail');
    });
  /** [O, COPY_END) <- [FROM, ...) in `step`-byte moves (each reads only bytes already final when FROM + step <= O). */
  const copyLoop = (step: 1 | 8) =>
    f.block('copied', () =>
      f.loop('copy', () => {
        f.get(O).get(COPY_END).op(Op.I32GeU).brIf('copied');
        f.get(O).get(FROM);
        if (step === 8) f.op(Op.I64Load, 0, 0).op(Op.I64Store, 0, 0);
        else f.op(Op.I32Load8U, 0, 0).op(Op.I32Store8, 0, 0);
        f.add(O, step).add(FROM, step).br('copy');
      }),
    );
  /**
   * The same with a first unconditional move of `first` bytes (needs FROM + first <= O for a
   * match): most literal runs fit in 16 and most matches in 32, so the loop rarely runs and the
   * branch around it is predictable, where a loop's exit after a varying count is not. The moves
   * are SIMD (v128): 5 % faster than i64 pairs, measured; a runtime without SIMD fails to compile
   * the module and gets the reference decoder.
   */
  const copyFirst = (first: 16 | 32) => {
    for (let at = 0; at < first; at += 16) f.get(O).get(FROM).op(Op.Simd, V128_LOAD, 0, at).op(Op.Simd, V128_STORE, 0, at);
    f.get(COPY_END).get(O).i32(first).op(Op.I32Add).op(Op.I32GtU);
    f.if(() => {
      f.add(O, first).add(FROM, first);
      copyLoop(8);
    });
  };

  f.get(OUT).set(O);
  f.block('fail', () => {
    // The decoded length (checked by the caller against OUT_LIMIT - OUT): skip it.
    f.loop('header', () => {
      f.get(SRC).get(SRC_END).op(Op.I32GeU).brIf('fail');
      f.get(SRC).op(Op.I32Load8U, 0, 0).set(BYTE).add(SRC, 1);
      f.get(BYTE).i32(0x80).op(Op.I32And).brIf('header');
    });
    f.block('done', () =>
      f.loop('sequence', () => {
        f.get(SRC).get(SRC_END).op(Op.I32GeU).brIf('fail');
        f.get(SRC).op(Op.I32Load8U, 0, 0).set(TOKEN).add(SRC, 1);
        // Literals.
        f.get(TOKEN).i32(4).op(Op.I32ShrU).tee(LITERALS).i32(15).op(Op.I32Eq);
        f.if(() => lengthTail(LITERALS));
        f.get(SRC).get(LITERALS).op(Op.I32Add).get(SRC_END).op(Op.I32GtU).brIf('fail');
        f.get(O).get(LITERALS).op(Op.I32Add).tee(COPY_END).get(OUT_LIMIT).op(Op.I32GtU).brIf('fail');
        f.get(SRC).set(FROM);
        copyFirst(16);
        f.get(COPY_END).set(O);
        f.get(SRC).get(LITERALS).op(Op.I32Add).tee(SRC).get(SRC_END).op(Op.I32Eq).brIf('done');
        // The match: distance, length, then the copy out of the dictionary and output so far.
        f.get(SRC).i32(2).op(Op.I32Add).get(SRC_END).op(Op.I32GtU).brIf('fail');
        f.get(SRC).op(Op.I32Load16U, 0, 0).set(DISTANCE).add(SRC, 2);
        f.get(TOKEN).i32(15).op(Op.I32And).tee(LENGTH).i32(15).op(Op.I32Eq);
        f.if(() => lengthTail(LENGTH));
        f.get(O).get(LENGTH).op(Op.I32Add).i32(LZ_MIN_MATCH).op(Op.I32Add).tee(COPY_END).get(OUT_LIMIT).op(Op.I32GtU).brIf('fail');
        f.get(DISTANCE).op(Op.I32Eqz).brIf('fail');
        f.get(DISTANCE).get(O).op(Op.I32GtU).brIf('fail');
        f.get(O).get(DISTANCE).op(Op.I32Sub).set(FROM);
        f.get(DISTANCE).i32(32).op(Op.I32GeU);
        f.if(
          () => copyFirst(32),
          () => {
            f.get(DISTANCE).i32(16).op(Op.I32GeU);
            f.if(
              () => copyFirst(16),
              () => {
                f.get(DISTANCE).i32(8).op(Op.I32GeU);
                f.if(
                  () => copyLoop(8),
                  () => copyLoop(1),
                );
              },
            );
          },
        );
        f.get(COPY_END).set(O);
        f.br('sequence');
      }),
    );
    f.get(O).get(OUT_LIMIT).op(Op.I32Ne).brIf('fail');
    f.get(O).get(OUT).op(Op.I32Sub).op(Op.Return);
  });
  f.i32(-1);
  return [...uleb(1), LOCALS, I32, ...f.bytes, Op.End];
}

function moduleBytes(): Uint8Array {
  const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
  const vector = (items: number[][]) => [...uleb(items.length), ...items.flat()];
  const name = (text: string) => [...uleb(text.length), ...Buffer.from(text, 'latin1')];
  const code = decodeBody();
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector([[I32], [I32], [I32], [I32]]), ...vector([[I32]])]])), // (i32 x4) -> i32
    ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x00, 0x01]])), // imports a memory, at least one page
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name('decode'), 0x00, 0]])),
    ...section(10, vector([[...uleb(code.length), ...code]])),
  ]);
}

/** The little of the WebAssembly API used here (the compiler's lib has no DOM types to declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: object | null | undefined;

/** The compiled module, or null where WebAssembly is unavailable (`node --jitless`). */
export function lzWasmModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasm ? new wasm.Module(moduleBytes()) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

export type WasmDecode = (src: number, srcEnd: number, out: number, outLimit: number) => number;

/** A memory of `pages` 64 KiB pages for one decoder. */
export function lzWasmMemory(pages: number): WasmMemory {
  return new wasm!.Memory({ initial: pages });
}

/** An instance of the decoder over its own memory. */
export function lzWasmInstance(module: object, memory: WasmMemory): WasmDecode {
  return new wasm!.Instance(module, { env: { memory } }).exports.decode as WasmDecode;
}
