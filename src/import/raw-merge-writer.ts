import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { streamCsvRows } from '../raw/csv-rows.js';
import { RawCsvWriter, type RawRow } from '../raw/csv-writer.js';
import type { RawFileName } from '../raw/schema.js';
import { rowKey, type FileDelivery } from './raw-delivery.js';

/**
 * Writes one raw file of an import into `outDir`: the existing file's rows streamed through in
 * their order (null: none), each replaced where it stands when the delivery says its key again
 * (an owner's list written whole where its first old row stood, its other old rows dropped),
 * then the delivery's new rows in the order they came. A file the delivery leaves alone is
 * copied as it is; one with neither is not written.
 */
export async function writeMerged(file: RawFileName, existing: string | null, delivery: FileDelivery | null, outDir: string): Promise<void> {
  if (!delivery) {
    if (existing) copyFileSync(existing, join(outDir, `${file}.csv`));
    return;
  }
  const header = existing
    ? readFileSync(existing, 'utf8')
        .split(/\r?\n/, 1)[0]
        .replace(/^\uFEFF/, '')
        .split(',')
    : undefined;
  const writer = new RawCsvWriter(outDir, file, header);
  try {
    const pendingRows = new Map(delivery.rows);
    const pendingLists = new Map(delivery.lists);
    if (existing) {
      await streamCsvRows(existing, ({ line, cells }) => {
        if (line === 1) return;
        const old: Record<string, string> = {};
        writer.columns.forEach((column, i) => {
          old[column] = cells[i] ?? '';
        });
        const key = rowKey(delivery.rule, (column) => old[column] ?? '');
        if (delivery.rule.kind === 'owned') {
          if (!delivery.lists.has(key)) writer.write(old);
          else if (pendingLists.has(key)) {
            for (const row of pendingLists.get(key)!) writer.write(row);
            pendingLists.delete(key);
          }
          return;
        }
        const replacement = pendingRows.get(key);
        writer.write(replacement ?? old);
        if (replacement) pendingRows.delete(key);
      });
    }
    for (const row of pendingRows.values()) writer.write(row);
    for (const list of pendingLists.values()) for (const row of list) writer.write(row as RawRow);
  } finally {
    writer.close();
  }
}
