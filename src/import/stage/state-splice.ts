import { copyFileSync } from 'node:fs';
import { RunReader, RunWriter } from '../../sort/run-files.js';
import { compareKeyBytes } from '../../sort/key-bytes.js';
import { RECORD_HEAD } from '../../sort/arena-key-sort.js';
import { touchedAt } from '../../raw/csv-row-reader.js';
import { KEY_TAIL } from './stage-keys.js';

/*
 * The import state's run files read and rewritten for the ids a delivery touches only: the
 * records of those ids picked out of a run (to merge with the delivery's), and a run rewritten
 * with their records replaced, every other record copied as its bytes lie.
 */

/** Whether the id of the record a reader is at (its key up to the 0x00 before the version) is touched. */
const touchedRecord = (touched: readonly Buffer[], cursor: { i: number }, r: RunReader): boolean =>
  touchedAt(touched, cursor, r.buffer!, r.keyStart, r.keyEnd - KEY_TAIL);

/**
 * Writes to `outPath` the records of `runPath` whose id is in `touched` (sorted as bytes), in
 * their order; returns the touched ids it found (sorted).
 */
export function extractState(runPath: string, touched: readonly Buffer[], outPath: string): Buffer[] {
  const writer = new RunWriter(outPath);
  const reader = new RunReader(runPath);
  const found: Buffer[] = [];
  try {
    const cursor = { i: 0 };
    for (; reader.buffer !== null && cursor.i < touched.length; reader.next()) {
      if (!touchedRecord(touched, cursor, reader)) continue;
      writer.add(reader.buffer, reader.keyStart - RECORD_HEAD, reader.valueEnd);
      if (found[found.length - 1] !== touched[cursor.i]) found.push(touched[cursor.i]);
    }
  } finally {
    reader.close();
    writer.close();
  }
  return found;
}

/**
 * Writes to `outPath` the records of `oldRun` (none when null) whose id is not in `touched`,
 * merged in key order with every record of `newRun` (the touched ids' state now).
 */
export function spliceRun(oldRun: string | null, newRun: string, touched: readonly Buffer[], outPath: string): void {
  if (oldRun === null) {
    copyFileSync(newRun, outPath);
    return;
  }
  const writer = new RunWriter(outPath);
  const old = new RunReader(oldRun);
  const fresh = new RunReader(newRun);
  // Untouched records side by side in the read block are written as one span, before the block moves.
  let spanStart = 0;
  let spanEnd = 0;
  const flush = () => {
    if (spanEnd > spanStart) writer.add(old.buffer!, spanStart, spanEnd);
    spanStart = spanEnd = 0;
  };
  old.beforeMove = flush;
  try {
    const cursor = { i: 0 };
    for (; old.buffer !== null; old.next()) {
      if (fresh.buffer !== null && compareKeyBytes(fresh.buffer, fresh.keyStart, fresh.keyEnd, old.buffer, old.keyStart, old.keyEnd, 0) < 0) {
        flush();
        do {
          writer.add(fresh.buffer, fresh.keyStart - RECORD_HEAD, fresh.valueEnd);
          fresh.next();
        } while (fresh.buffer !== null && compareKeyBytes(fresh.buffer, fresh.keyStart, fresh.keyEnd, old.buffer, old.keyStart, old.keyEnd, 0) < 0);
      }
      if (touchedRecord(touched, cursor, old)) continue;
      const start = old.keyStart - RECORD_HEAD;
      if (spanEnd !== start || spanEnd === spanStart) {
        flush();
        spanStart = start;
      }
      spanEnd = old.valueEnd;
    }
    flush();
    for (; fresh.buffer !== null; fresh.next()) writer.add(fresh.buffer, fresh.keyStart - RECORD_HEAD, fresh.valueEnd);
  } finally {
    old.close();
    fresh.close();
    writer.close();
  }
}
