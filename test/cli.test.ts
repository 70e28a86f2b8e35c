import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/compile.js';
import { SMALL_CATALOG, tempDir, writeRaw } from './helpers/raw-fixture.js';

const omm = fileURLToPath(new URL('../bin/omm', import.meta.url));
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [omm, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('omm CLI', () => {
  it('pins the compile help text', () => {
    expect(run('compile', '--help').stdout).toMatchInlineSnapshot(`
      "Usage: omm compile [options] <raw-dir>

      compile a raw catalog directory into a snapshot, published atomically in
      <dist-dir>

      Arguments:
        raw-dir               directory of raw CSV files (docs/raw-format.md)

      Options:
        -o, --out <dist-dir>  dist directory; the snapshot goes to
                              <dist-dir>/snapshots/<build id> and <dist-dir>/current
                              points at it
        --skip-invalid        drop invalid rows (listed with reasons in rejects.csv)
                              instead of failing (default: false)
        --keep <n>            snapshots to keep in the dist directory (default: 3)
        --max-errors <n>      errors to list when the compile fails (default: 100)
        --no-views            do not store pre-rendered default views (a smaller
                              snapshot; the server renders every response)
        --memory <size>       memory budget of the whole compile, e.g. 1g, 512m (at
                              least 64 MiB); sorts beyond it spill to a directory
                              beside the output (default: "512 MiB")
        --delta               add the deliveries the raw catalog's change journal
                              records since <dist-dir>/current was compiled as one
                              delta segment over it (docs/segments.md), compiling only
                              what they change (default: false)
        -q, --quiet           print nothing on success (default: false)
        -h, --help            display help for command
      "
    `);
  });

  it('compiles, inspects and verifies; verify fails on a corrupt shard', () => {
    const out = tempDir();
    const compiled = run('compile', writeRaw(SMALL_CATALOG), '--out', out);
    expect(compiled.code).toBe(0);
    expect(compiled.stdout).toMatch(/build id +[0-9a-f]{16}/);
    expect(compiled.stdout).toContain('songs 4, albums 3, artists 4, playlists 2');

    const inspected = run('inspect', out);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toMatch(/songs\.0000\.rec +RECS +songs .* 4 records/);
    expect(inspected.stdout).toMatch(/song\.isrc\.keys +KEYS +song\.isrc .* 3 keys/);
    const json = JSON.parse(run('inspect', out, '--json').stdout);
    expect(json.counts.songs).toBe(4);

    expect(run('verify', out)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^snapshot [0-9a-f]{16} OK: \d+ shards/) });

    const dir = join(out, readFileSync(join(out, 'current'), 'utf8').trim());
    const shard = join(dir, readdirSync(dir).find((f) => f.startsWith('songs.'))!);
    const bytes = readFileSync(shard);
    bytes[4200] ^= 0x10; // inside the body (it starts at 4096)
    writeFileSync(shard, bytes);
    const failed = run('verify', out);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('FAILED verification');
    expect(failed.stderr).toContain('E_CHECKSUM');
  });

  it('compile --delta: refuses a raw catalog without a change journal, publishes one delta from a journaled change, then nothing', () => {
    const raw = writeRaw(SMALL_CATALOG);
    const out = tempDir();
    expect(run('compile', raw, '--out', out, '-q').code).toBe(0);
    const current = () => readFileSync(join(out, 'current'), 'utf8');
    const before = current();
    const refused = run('compile', raw, '--out', out, '--delta');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('E_DELTA_JOURNAL');
    expect(current()).toBe(before);

    // A song renamed, as an import --into journals it.
    const songs = join(raw, 'songs.csv');
    const [header, first, ...rest] = readFileSync(songs, 'utf8').split('\n');
    const id = first.split(',')[0];
    writeFileSync(songs, [header, first.replace(/^([^,]*),[^,]*,/, '$1,Renamed Song,'), ...rest].join('\n'));
    mkdirSync(join(raw, '.omm-changes'));
    writeFileSync(join(raw, '.omm-changes', '000001.jsonl'), `${JSON.stringify({ type: 'song', id, change: 'updated' })}\n`);
    const delta = run('compile', raw, '--out', out, '--delta');
    expect(delta.code).toBe(0);
    expect(delta.stdout).toMatch(/\(2 segments\)/);
    expect(delta.stdout).toMatch(/holds +song 1\b/);
    expect(run('verify', out).code).toBe(0);
    expect(run('compile', raw, '--out', out, '--delta').stdout).toContain('nothing published');
  });

  it('start: rebuilds a snapshot without the views this server sends, then finds it up to date', () => {
    const raw = writeRaw(SMALL_CATALOG);
    const out = tempDir();
    expect(run('compile', raw, '--out', out, '--no-views', '-q').code).toBe(0);
    const first = run('start', '--raw', raw, '--out', out, '--no-serve');
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('omm: compiled snapshot');
    const second = run('start', '--raw', raw, '--out', out, '--no-serve');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('is up to date');
  });

  it('exits 2 with every located error when the raw data is invalid', () => {
    const raw = writeRaw({ ...SMALL_CATALOG, songs: `${SMALL_CATALOG.songs}\n104,,BAD,,,,,,` });
    const r = run('compile', raw, '--out', tempDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('songs.csv:6: column name: required value is empty [E_RAW_ROW]');
  });
  it('the built compile reads files.csv, writes files and lyrics and resolves the songs on worker threads: the same errors, the same rows skipped, the same snapshot as in one thread', async () => {
    const raw = writeRaw({
      ...SMALL_CATALOG,
      files: `${SMALL_CATALOG.files}\nf4,100,audio/mpeg,mp3,false,fast,,,,,,,\nf5,999,audio/mpeg,mp3,false,,,,,,,,\nf6,101,audio/mpeg,mp3,false,128,,,,,,,`,
      // Duplicate ids, found while resolving: songs on a worker, artists and albums here.
      songs: `${SMALL_CATALOG.songs}\n100,Again,,,,,,,`,
      artists: `${SMALL_CATALOG.artists}\n2,Again,,,,,`,
    });
    const failed = run('compile', raw, '--out', tempDir());
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('files.csv:5: column bitrate_kbps');
    expect(failed.stderr).toContain('files.csv:6: column song_id');
    const artist = failed.stderr.indexOf('artists.csv:6: column id: id "2" is already used on line 3');
    const song = failed.stderr.indexOf('songs.csv:6: column id: id "100" is already used on line 2');
    expect(artist, failed.stderr).toBeGreaterThan(0);
    expect(song, failed.stderr).toBeGreaterThan(artist); // in entity order, whichever thread found them
    const inOneThread = await compileCatalog({ rawDir: raw, outDir: tempDir() }).catch((e: Error) => e.message);
    expect(failed.stderr).toContain(String(inOneThread).split('\n').slice(1).join('\n'));
    const threaded = tempDir();
    expect(run('compile', raw, '--out', threaded, '--skip-invalid', '-q').code).toBe(0);
    const inProcess = tempDir();
    await compileCatalog({ rawDir: raw, outDir: inProcess, skipInvalid: true });
    const digests = (out: string) => {
      const dir = join(out, readFileSync(join(out, 'current'), 'utf8').trim());
      return readdirSync(dir)
        .sort()
        .map(
          (f) =>
            `${f} ${createHash('sha256')
              .update(readFileSync(join(dir, f)))
              .digest('hex')}`,
        );
    };
    expect(digests(threaded)).toEqual(digests(inProcess));
    expect(digests(threaded).some((f) => f.startsWith('files.'))).toBe(true);
  });

  it('serve: every option has its environment variable, and a bad value from either names its flag', () => {
    const help = run('serve', '--help').stdout;
    const options = help.slice(help.indexOf('Options:'), help.indexOf('-h, --help'));
    const flags = [...options.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(flags.length).toBeGreaterThan(15);
    const described = options.split(/\n {2}(?=-)/).slice(1);
    for (const entry of described) expect(entry.replace(/\s+/g, ' '), entry).toMatch(/\(env OMM_[A-Z_]+/);
    expect(help).toContain('Examples:');
    const fromEnv = spawnSync(process.execPath, [omm, 'serve', 'nowhere'], { encoding: 'utf8', env: { ...process.env, OMM_MAX_URL_LENGTH: 'lots' } });
    expect(fromEnv.status).toBe(1);
    expect(fromEnv.stderr).toContain('--max-url-length must be a whole number 64..');
    const fromFlag = run('serve', 'nowhere', '--cors-origins', 'app.example.com');
    expect(fromFlag.stderr).toContain('--cors-origins: "app.example.com" is not an origin');
  });
});
