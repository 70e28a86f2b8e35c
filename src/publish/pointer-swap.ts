import { encodeJson, HISTORY_LENGTH, isStoreError, type ObjectStore, type Pointer, POINTER, parsePointer } from '../object-store/index.js';

export interface PointerRead {
  readonly pointer: Pointer | null;
  /** The entity tag to condition the next write on (absent: the pointer does not exist). */
  readonly etag: string | null;
}

export async function readPointer(store: ObjectStore): Promise<PointerRead> {
  const got = await store.get(POINTER);
  if (got === null) return { pointer: null, etag: null };
  if (got === 'not-modified') throw new Error('unreachable: no If-None-Match was sent');
  return { pointer: parsePointer(got.body), etag: got.etag };
}

export interface PointerSwap {
  /** `moved`: the pointer now names the build; `already`: it named it before; `renamed`: it did, and was written again. */
  readonly outcome: 'moved' | 'already' | 'renamed';
  /** The build it named before (null when there was no pointer). */
  readonly previous: string | null;
  /** Conditional writes lost to another publisher and retried. */
  readonly retries: number;
}

const ATTEMPTS = 8;

/**
 * Points `current` at a build whose objects are all in the store: a conditional write (If-Match
 * the pointer read, or If-None-Match: * when there was none), so a publisher that raced another
 * re-reads and writes again, and the pointer always ends naming one complete build (the last to
 * write wins; neither is ever half-named).
 */
export async function swapPointer(store: ObjectStore, buildId: string, descriptorSha256: string, now: () => Date, rewrite = false): Promise<PointerSwap> {
  for (let retries = 0; retries < ATTEMPTS; retries++) {
    const { pointer, etag } = await readPointer(store);
    const already = pointer?.buildId === buildId && pointer.descriptorSha256 === descriptorSha256;
    if (already && !rewrite) return { outcome: 'already', previous: buildId, retries };
    // Rewritten in place, it keeps its history; moved, the build it named goes first.
    const before = pointer ? (already ? pointer.history : [pointer.buildId, ...pointer.history]) : [];
    const next: Pointer = {
      format: 'omm-current',
      version: 1,
      buildId,
      descriptorSha256,
      publishedAt: now().toISOString(),
      history: [...new Set(before)].filter((id) => id !== buildId).slice(0, HISTORY_LENGTH),
    };
    try {
      await store.put(POINTER, encodeJson(next), etag === null ? { ifAbsent: true } : { ifMatch: etag });
      return { outcome: already ? 'renamed' : 'moved', previous: pointer?.buildId ?? null, retries };
    } catch (err) {
      if (!isStoreError(err, 'E_STORE_PRECONDITION')) throw err;
      // Another publisher moved it between our read and write: read it again.
    }
  }
  throw new Error(`the pointer kept changing under ${ATTEMPTS} conditional writes: another publisher is writing it in a loop`);
}
