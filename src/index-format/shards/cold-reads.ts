import { loadNativeAddon } from '../codec/native-addon.js';
import { PAGE_SIZE } from '../constants.js';
import { FormatError } from '../errors.js';
import type { FileBytes } from './mapped-file.js';

/*
 * Reads that never wait for the disk on the event loop. A snapshot larger than memory is read
 * through mappings, and a mapped byte not in memory stops the whole process while the disk
 * fetches it: one request at a time waits, whatever the disk could do at once (measured here:
 * 14k random reads/s one at a time, 99k with 64 in flight). So a request runs armed
 * (`readWithoutWaiting`): a read of a shard that reads ahead (Shard.readsAhead) first asks the
 * kernel whether its pages are in memory (mincore), and when they are not, throws ColdRead with
 * the bytes it needs instead of touching them. The request is then run again once a thread of
 * libuv's pool has brought them in, while the event loop answers others. A run only reads an
 * immutable snapshot, so running it again changes nothing but the time it takes.
 */

/** Bytes [start, start+length) of a mapped file. */
export interface ColdRange {
  readonly file: FileBytes;
  readonly start: number;
  readonly length: number;
}

/** Thrown by a read, while armed, of mapped bytes not in memory: what it needs brought in. */
export class ColdRead extends Error {
  constructor(readonly ranges: readonly ColdRange[]) {
    // No stack: it is caught a few frames up, and capturing one was 2% of a loaded server (perf).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super('mapped bytes not in memory (a request runs again once they are)');
    Error.stackTraceLimit = limit;
    this.name = 'ColdRead';
  }
}

let armed = false;

/** Whether the work running now has asked to be told of cold bytes instead of waiting for them. */
export function coldReadsArmed(): boolean {
  return armed;
}

/** The most times a request is run again before it runs unarmed (and waits where it must). */
export const MAX_ROUNDS = 24;

/** Requests run again, the rounds of fetches that took, and requests that ran out of rounds. */
export const coldReadStats = { requests: 0, rounds: 0, unarmed: 0 };

/**
 * Runs `work` armed: its value, or, when a read found its bytes on disk, a Promise of its value
 * run again once they are in memory. Without the native addon's page fetch, runs it as ever.
 */
export function readWithoutWaiting<T>(work: () => T): T | Promise<T> {
  if (switchedOff || (!simulated && !loadNativeAddon()?.fetchPages)) return work();
  const first = attempt(work);
  if (!(first instanceof ColdRead)) return first.value;
  coldReadStats.requests++;
  return (async () => {
    let cold: ColdRead = first;
    for (let round = 1; round < MAX_ROUNDS; round++) {
      coldReadStats.rounds++;
      await bringIn(cold.ranges);
      const next = attempt(work);
      if (!(next instanceof ColdRead)) return next.value;
      cold = next;
    }
    coldReadStats.unarmed++;
    return work();
  })();
}

function attempt<T>(work: () => T): { value: T } | ColdRead {
  armed = true;
  try {
    return { value: work() };
  } catch (err) {
    if (err instanceof ColdRead) return err;
    throw err;
  } finally {
    armed = false;
  }
}

/** Whether every page under the range is in memory now (or, simulated, was brought in). */
export function residentNow(file: FileBytes, start: number, length: number): boolean {
  if (simulated) return pagesOf(file, start, length).every((page) => simulated!.has(page));
  return file.resident(start, length);
}

/** The addon takes at most FETCH_MAX views a call: more are fetched in several, at once. */
const FETCH_MAX = 256;

async function bringIn(ranges: readonly ColdRange[]): Promise<void> {
  if (simulated) {
    await new Promise((resolve) => setImmediate(resolve));
    for (const { file, start, length } of ranges) for (const page of pagesOf(file, start, length)) simulated.add(page);
    return;
  }
  const fetchPages = loadNativeAddon()!.fetchPages!;
  const views = ranges.map(({ file, start, length }) => file.read(start, length));
  const calls: Promise<void>[] = [];
  for (let at = 0; at < views.length; at += FETCH_MAX) calls.push(fetchPages(views.slice(at, at + FETCH_MAX)));
  await Promise.all(calls);
}

/**
 * OMM_COLD_READS: `on` (the default), `off` (reads wait where they fall, as before this existed),
 * or `simulate` (tests and diagnostics: every page reads as on disk until a request has brought it
 * in once, so the runs again of every endpoint are exercised on a machine whose memory holds the
 * whole snapshot; its pages kept as `path#page`).
 */
const mode = coldReadsMode(process.env.OMM_COLD_READS);
const switchedOff = mode === 'off';
const simulated: Set<string> | null = mode === 'simulate' ? new Set() : null;

function coldReadsMode(value: string | undefined): 'on' | 'off' | 'simulate' {
  if (value === undefined || value === '') return 'on';
  if (value === 'on' || value === 'off' || value === 'simulate') return value;
  throw new FormatError('E_IO', `OMM_COLD_READS must be on, off or simulate; got ${JSON.stringify(value)}`);
}

function pagesOf(file: FileBytes, start: number, length: number): string[] {
  const pages: string[] = [];
  for (let page = Math.floor(start / PAGE_SIZE); page <= Math.floor((start + length - 1) / PAGE_SIZE); page++) pages.push(`${file.path}#${page}`);
  return pages;
}

/**
 * When a shard's reads are checked: always while they often find cold pages, one in sixteen
 * while they rarely do (a check is a system call, about a microsecond here: a table memory holds,
 * as a common search's lists, would otherwise pay it on every read for nothing).
 */
export class ColdCheckPace {
  private coldRate = 1;
  private skipped = 0;

  due(): boolean {
    if (this.coldRate > 1 / 32) return true;
    this.skipped = (this.skipped + 1) & 15;
    return this.skipped === 0;
  }

  observe(cold: boolean): void {
    this.coldRate += ((cold ? 1 : 0) - this.coldRate) / 16;
  }
}
