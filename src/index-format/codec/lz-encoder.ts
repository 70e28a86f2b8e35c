import { LzEncoder } from './lz-codec.js';
import { loadNativeAddon } from './native-addon.js';

/** Compresses records against one dictionary (omm-lz); `encode` returns a view valid until its next call. */
export interface RecordEncoder {
  readonly dictionary: Uint8Array;
  encode(record: Uint8Array): Uint8Array;
}

/**
 * The native encoder (native/lz.c) when the addon has it, else LzEncoder: the same bytes either
 * way (lz-encoder.test.ts), about 5x faster natively. `OMM_LZ=js` forces the JavaScript one.
 */
export function createRecordEncoder(dictionary: Uint8Array): RecordEncoder {
  const addon = process.env.OMM_LZ === 'js' ? null : loadNativeAddon();
  if (addon?.lzEncoderCreate && addon.lzEncode) return new NativeLzEncoder(dictionary, addon.lzEncoderCreate(dictionary), addon.lzEncode);
  return new LzEncoder(dictionary);
}

/** Whether createRecordEncoder gives the native encoder. */
export function nativeLzEncoderAvailable(): boolean {
  return Boolean(loadNativeAddon()?.lzEncoderCreate);
}

class NativeLzEncoder implements RecordEncoder {
  private out = new Uint8Array(4096);

  constructor(
    readonly dictionary: Uint8Array,
    private readonly handle: object,
    private readonly lzEncode: (encoder: object, record: Uint8Array, out: Uint8Array) => number,
  ) {}

  encode(record: Uint8Array): Uint8Array {
    const worst = record.length + Math.ceil(record.length / 255) + 16;
    if (this.out.length < worst) this.out = new Uint8Array(worst + (worst >> 1));
    return this.out.subarray(0, this.lzEncode(this.handle, record, this.out));
  }
}
