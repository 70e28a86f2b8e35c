import { DIFF_TYPES, type DiffReport, type FieldChange } from './snapshot-diff.js';
import type { FailedRule } from './thresholds.js';

const n = (x: number): string => x.toLocaleString('en-US');
const signed = (x: number): string => (x > 0 ? `+${n(x)}` : n(x));
const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};
const fieldLine = (f: FieldChange): string => `${f.field}: ${show(f.old)} -> ${show(f.new)}`;
const GENRES_SHOWN = 20;

/** `taken down: 9 songs, 1 albums` (of the removed, those the new snapshot's deletes set takes out), or null. */
function takenDownLine(report: DiffReport): string | null {
  const parts = DIFF_TYPES.filter((type) => report.types[type].takenDown > 0).map((type) => `${n(report.types[type].takenDown)} ${type}`);
  return parts.length === 0 ? null : `taken down: ${parts.join(', ')} (in the records, left out by the deletes set)`;
}

/** Plain text for a terminal or a CI log. */
export function diffText(report: DiffReport, failed: readonly FailedRule[]): string {
  const out: string[] = [`old ${report.old.buildId}  ${report.old.dir}`, `new ${report.new.buildId}  ${report.new.dir}`];
  if (report.identical) out.push('identical: same build id (same raw input and compiler)');
  out.push('');
  const rows = [['type', 'old', 'new', 'added', 'removed', 'changed', 'changed ids']];
  for (const type of DIFF_TYPES) {
    const t = report.types[type];
    rows.push([type, n(t.old), n(t.new), n(t.added), n(t.removed), n(t.changed), n(t.changedIds)]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) out.push(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
  const down = takenDownLine(report);
  if (down) out.push('', down);
  if (report.totals.changedIds > 0) {
    out.push('', `!!! ${n(report.totals.changedIds)} CATALOG ID(S) CHANGED: clients that stored the old ids will not find them`);
    for (const type of DIFF_TYPES) for (const c of report.types[type].samples.changedIds) out.push(`    ${type} ${c.id}: ${c.old} -> ${c.new}`);
  }
  for (const type of DIFF_TYPES) {
    const s = report.types[type].samples;
    if (s.added.length + s.removed.length + s.changed.length === 0) continue;
    out.push('', `${type}:`);
    if (s.added.length) out.push(`  added (e.g.)    ${s.added.join(', ')}`);
    if (s.removed.length) out.push(`  removed (e.g.)  ${s.removed.join(', ')}`);
    for (const c of s.changed) out.push(`  changed ${c.id}`, ...c.fields.map((f) => `    ${fieldLine(f)}`));
  }
  if (report.genres.length) {
    out.push('', 'songs per genre:');
    for (const g of report.genres.slice(0, GENRES_SHOWN)) out.push(`  ${g.genre}: ${n(g.old)} -> ${n(g.new)} (${signed(g.delta)})`);
    if (report.genres.length > GENRES_SHOWN) out.push(`  ... and ${report.genres.length - GENRES_SHOWN} more genres`);
  }
  out.push('', `compared in ${report.seconds.toFixed(2)} s`);
  for (const f of failed) out.push(`FAIL ${f.rule.text} (value ${n(f.value)})`);
  return `${out.join('\n')}\n`;
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** GitHub-flavoured Markdown for a pull-request comment. */
export function diffMarkdown(report: DiffReport, failed: readonly FailedRule[]): string {
  const out: string[] = [`### Catalog diff: \`${report.old.buildId}\` → \`${report.new.buildId}\``, ''];
  if (failed.length) out.push(`**Failed:** ${failed.map((f) => `\`${f.rule.text}\` (${n(f.value)})`).join(', ')}`, '');
  if (report.identical) out.push('Identical: same build id.', '');
  out.push('| type | old | new | added | removed | changed | changed ids |', '|---|---:|---:|---:|---:|---:|---:|');
  for (const type of DIFF_TYPES) {
    const t = report.types[type];
    out.push(`| ${type} | ${n(t.old)} | ${n(t.new)} | ${n(t.added)} | ${n(t.removed)} | ${n(t.changed)} | ${t.changedIds ? `**${n(t.changedIds)}**` : '0'} |`);
  }
  const down = takenDownLine(report);
  if (down) out.push('', down);
  if (report.totals.changedIds > 0) {
    out.push('', `> [!WARNING]`, `> ${n(report.totals.changedIds)} catalog id(s) changed: clients that stored the old ids will not find them.`);
    for (const type of DIFF_TYPES) for (const c of report.types[type].samples.changedIds) out.push(`> - ${type} \`${c.id}\`: \`${c.old}\` → \`${c.new}\``);
  }
  const changed = DIFF_TYPES.flatMap((type) =>
    report.types[type].samples.changed.flatMap((c) =>
      c.fields.map((f) => `| ${type} | \`${cell(c.id)}\` | ${f.field} | ${cell(show(f.old))} | ${cell(show(f.new))} |`),
    ),
  );
  if (changed.length)
    out.push(
      '',
      '<details><summary>Changed fields (sample)</summary>',
      '',
      '| type | id | field | old | new |',
      '|---|---|---|---|---|',
      ...changed,
      '',
      '</details>',
    );
  if (report.genres.length) {
    out.push('', '<details><summary>Songs per genre</summary>', '', '| genre | old | new | delta |', '|---|---:|---:|---:|');
    for (const g of report.genres.slice(0, GENRES_SHOWN)) out.push(`| ${cell(g.genre)} | ${n(g.old)} | ${n(g.new)} | ${signed(g.delta)} |`);
    out.push('', '</details>');
  }
  return `${out.join('\n')}\n`;
}
