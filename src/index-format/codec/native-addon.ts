import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** What native/ builds (omm_mmap.node): file mapping (mmap.c) and the omm-lz encoder (lz.c). */
export interface NativeAddon {
  /** The whole file, or bytes [offset, offset + length) of it (offset page-aligned). */
  map(path: string, offset?: number, length?: number): Buffer;
  advise(buffer: Buffer, kind: string): void;
  /** Whether every page under bytes [offset, offset + length) of a mapping is in memory (mincore); absent in an older build. */
  resident?(buffer: Buffer, offset: number, length: number): boolean;
  /** Settles once every page under the views (of mappings, at most 256) is in memory, read on libuv's pool; absent in an older build. */
  fetchPages?(views: Buffer[]): Promise<void>;
  /** Absent on a big-endian host, or in an addon built before lz.c. */
  lzEncoderCreate?(dictionary: Uint8Array): object;
  lzEncode?(encoder: object, record: Uint8Array, out: Uint8Array): number;
}

let addon: NativeAddon | null | undefined;
let addonError: string | undefined;

/** The addon, loaded once; null when it was not built (the install never fails for it). */
export function loadNativeAddon(): NativeAddon | null {
  if (addon !== undefined) return addon;
  try {
    const require = createRequire(import.meta.url);
    // src/index-format/codec/ and dist/index-format/codec/ are both three levels below the package root.
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    addon = require(`${root}native/build/Release/omm_mmap.node`) as NativeAddon;
  } catch (err) {
    addon = null;
    addonError = (err as Error).message.split('\n')[0];
  }
  return addon;
}

/** Why the addon did not load, when it did not. */
export function nativeAddonError(): string | undefined {
  loadNativeAddon();
  return addonError;
}
