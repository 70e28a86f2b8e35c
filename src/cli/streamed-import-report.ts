import type { StreamedImportSummary } from '../import/stage/run-import.js';
import { count } from '../units/readable.js';

/** The summary of a streamed import: what was read, what was written, what was left out and why. */
export function streamedImportReport(what: string, s: StreamedImportSummary): string {
  const lines: string[] = [];
  const units =
    Object.entries(s.units)
      .map(([kind, n]) => `${count(n)} ${kind}${n === 1 ? '' : 's'}`)
      .join(', ') || 'nothing';
  const rate = s.seconds > 0 ? `, ${count(Math.round(s.tracks / s.seconds))} tracks/s` : '';
  lines.push(`imported ${what} into ${s.outDir} in ${s.seconds.toFixed(1)} s: read ${units} (${(s.bytesRead / 1048576).toFixed(1)} MiB)${rate}`);
  lines.push(
    `  staged ${count(s.releases)} release(s) with ${count(s.tracks)} track(s), ${count(s.takedowns)} takedown(s); ${count(s.releasesReplaced)} replaced by a later message, ${count(s.albumsTakenDown)} taken down`,
  );
  if (s.into) lines.push(changesLine(s));
  lines.push(
    `  wrote ${Object.entries(s.rows)
      .map(([file, n]) => `${file} ${count(n)}`)
      .join(', ')}`,
  );
  if (s.songsDropped + s.artistsDropped > 0)
    lines.push(`  left out ${count(s.songsDropped)} song(s) and ${count(s.artistsDropped)} artist(s) only on releases that did not survive`);
  if (s.skipped > 0) {
    const reasons = Object.entries(s.skippedBy)
      .sort((a, b) => b[1] - a[1])
      .map(([reason, n]) => `${reason} ${count(n)}`)
      .join(', ');
    lines.push(`  skipped ${count(s.skipped)} item(s): ${reasons}`);
    for (const skip of s.skips.slice(0, 20)) lines.push(`    ${skip}`);
    if (s.skipped > 20) lines.push(`    ... and ${count(s.skipped - 20)} more`);
  }
  if (s.warningCount > 0) {
    lines.push(`  ${count(s.warningCount)} warning(s):`);
    for (const warning of s.warnings.slice(0, 20)) lines.push(`    ${warning}`);
    if (s.warningCount > 20) lines.push(`    ... and ${count(s.warningCount - 20)} more`);
  }
  return `${lines.join('\n')}\n`;
}

/** What applying a delivery changed in the raw catalog (--into), or that it changed nothing. */
function changesLine(s: StreamedImportSummary): string {
  const changed = s.releasesAdded + s.releasesUpdated + s.albumsTakenDown + s.songsAdded + s.songsRemoved + s.artistsAdded + s.artistsRemoved > 0;
  if (!changed) return `  no change: every release already as the raw catalog holds it (${count(s.releasesUnchanged)} unchanged)`;
  return `  changed: releases ${count(s.releasesAdded)} added, ${count(s.releasesUpdated)} updated, ${count(s.albumsTakenDown)} taken down, ${count(s.releasesUnchanged)} unchanged; songs ${count(s.songsAdded)} added, ${count(s.songsRemoved)} removed; artists ${count(s.artistsAdded)} added, ${count(s.artistsRemoved)} removed`;
}
