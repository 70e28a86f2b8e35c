import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/raw-fixture.js';

/** `omm import ddex` and `omm import musicbrainz` as a user runs them: exit codes, messages, what is left on disk. */
const omm = fileURLToPath(new URL('../bin/omm', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [omm, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const ddex = (name: string) => join(fixtures, 'ddex', name);
/** The raw CSV files of a directory (not the import state beside them), by name. */
const csv = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.csv'))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );

describe('omm import ddex / musicbrainz (CLI)', () => {
  it('imports a batch, reports what it skipped, and under --strict fails instead, leaving the previous output as it was', () => {
    const out = join(tempDir(), 'raw');
    const ok = run('import', 'ddex', ddex('ern382-multidisc.xml'), ddex('ern382-missing-isrc.xml'), '--out', out);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/read 2 messages/);
    expect(ok.stdout).toMatch(/skipped 2 item\(s\): no ISRC 2\n.*SoundRecording\[2\]: track No Code skipped: no ISRC/);
    const before = csv(out);
    expect(before['albums.csv']).toContain('0036000291452,Two Sides');
    const strict = run('import', 'ddex', ddex('ern382-missing-isrc.xml'), '--out', out, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/ern382-missing-isrc\.xml:\d+: .*no ISRC \(--strict fails instead of skipping\) \[E_IMPORT_SKIPPED\]/);
    expect(csv(out)).toEqual(before);
    expect(readdirSync(dirname(out))).toEqual(['raw']);
  });

  it('--into applies a delivery to the raw catalog there, says what changed, and says so when nothing did', () => {
    const out = join(tempDir(), 'raw');
    expect(run('import', 'ddex', ddex('ern382-multidisc.xml'), '--out', out).code).toBe(0);
    const purge = run('import', 'ddex', ddex('ern382-purge.xml'), '--into', out);
    expect(purge.code).toBe(0);
    expect(purge.stdout).toMatch(/changed: releases 0 added, 0 updated, 1 taken down, 0 unchanged; songs 0 added, \d+ removed/);
    expect(csv(out)['albums.csv']).not.toContain('Two Sides');
    const again = run('import', 'ddex', ddex('ern382-purge.xml'), '--into', out);
    expect(again.stdout).toMatch(/no change/);
    const both = run('import', 'ddex', ddex('ern382-purge.xml'), '--into', out, '--out', out);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either --out <raw-dir> .* or --into <raw-dir>/);
    expect(run('import', 'ddex', ddex('ern382-purge.xml')).code).toBe(2);
  });

  it('applies a later purge whatever the order of the files, with byte-identical output', () => {
    const a = join(tempDir(), 'raw');
    const b = join(tempDir(), 'raw');
    expect(run('import', 'ddex', ddex('ern382-multidisc.xml'), ddex('ern382-main-last.xml'), ddex('ern382-purge.xml'), '--out', a).code).toBe(0);
    const reversed = run('import', 'ddex', ddex('ern382-purge.xml'), ddex('ern382-main-last.xml'), ddex('ern382-multidisc.xml'), '--out', b, '--memory', '1m');
    expect(reversed.code).toBe(0);
    expect(reversed.stdout).toMatch(/1 taken down/);
    expect(csv(b)).toEqual(csv(a));
    expect(csv(a)['albums.csv']).not.toContain('Two Sides');
    expect(csv(a)['songs.csv']).not.toContain('USAB12100002');
  });

  it('truncated XML fails naming file, line and column; nothing is written and the previous output stays', () => {
    const dir = tempDir();
    const out = join(dir, 'raw');
    expect(run('import', 'ddex', ddex('ern382-multidisc.xml'), '--out', out).code).toBe(0);
    const before = csv(out);
    const text = readFileSync(ddex('ern382-multidisc.xml'), 'utf8');
    const cut = join(dir, 'cut.xml');
    writeFileSync(cut, text.slice(0, Math.floor(text.length / 2)));
    const r = run('import', 'ddex', ddex('ern382-multidisc.xml'), cut, '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^omm: ${cut.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+: NewReleaseMessage/.*\\[E_IMPORT_SYNTAX\\]\\n$`));
    expect(csv(out)).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(['cut.xml', 'raw']);
  });

  it('a bad JSON line fails naming file, line and column, and creates no output', () => {
    const dir = tempDir();
    const input = join(dir, 'release.jsonl');
    copyFileSync(join(fixtures, 'musicbrainz', 'release.jsonl'), input);
    writeFileSync(input, `${readFileSync(input, 'utf8')}{"id": "a0000000-0000-4000-8000-00000000000f", "title": oops}\n`);
    const lineNo = readFileSync(input, 'utf8').trimEnd().split('\n').length;
    const out = join(dir, 'raw');
    const r = run('import', 'musicbrainz', input, '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`release\\.jsonl:${lineNo}:\\d+: .*\\[E_IMPORT_SYNTAX\\]`));
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual(['release.jsonl']);
  });

  it('refuses an unreadable --memory and a relative --artwork-base-url', () => {
    const out = join(tempDir(), 'raw');
    expect(run('import', 'ddex', ddex('ern382-multidisc.xml'), '--out', out, '--memory', 'lots').stderr).toMatch(/--memory: "lots" is not a size/);
    expect(run('import', 'ddex', ddex('ern382-multidisc.xml'), '--out', out, '--artwork-base-url', 'covers/').stderr).toMatch(
      /--artwork-base-url: "covers\/" is not an absolute http\(s\) URL/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
