// A cgroup v1 memory controller group for one benchmark run (root only): made with a limit,
// a process started inside it, its own counters read, removed afterwards. And evicting a
// snapshot's pages from the page cache first: pages already cached stay charged to whoever read
// them, so a limit means nothing until they are gone.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/sys/fs/cgroup/memory';

/** Why a memory cgroup cannot be made here, or null. */
export function cgroupUnavailable() {
  if (!existsSync(join(ROOT, 'memory.limit_in_bytes'))) return `no cgroup v1 memory controller at ${ROOT}`;
  if (process.getuid?.() !== 0) return 'making a cgroup needs root';
  return null;
}

/** posix_fadvise(DONTNEED) on every file of `dir` (GNU dd's iflag=nocache with count=0); returns the bytes still cached. */
export function evictPages(dir) {
  const files = readdirSync(dir).map((f) => join(dir, f));
  for (const file of files) spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
  const out = spawnSync('fincore', ['--bytes', '--noheadings', '--raw', '--output', 'RES', ...files], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.split('\n').reduce((sum, l) => sum + (Number(l.trim()) || 0), 0) : null;
}

/** A fresh group named `name` limited to `bytes` (memory and, where the kernel has it, memory+swap). */
export function makeGroup(name, bytes) {
  const dir = join(ROOT, name);
  if (existsSync(dir)) rmdirSync(dir);
  mkdirSync(dir);
  writeFileSync(join(dir, 'memory.limit_in_bytes'), String(bytes));
  if (existsSync(join(dir, 'memory.memsw.limit_in_bytes'))) writeFileSync(join(dir, 'memory.memsw.limit_in_bytes'), String(bytes));
  const read = (file) => readFileSync(join(dir, file), 'utf8');
  const stat = () =>
    Object.fromEntries(
      read('memory.stat')
        .trim()
        .split('\n')
        .map((l) => l.split(' '))
        .map(([k, v]) => [k, Number(v)]),
    );
  return {
    dir,
    /** `argv` started inside the group (the shell joins it, then becomes the command). */
    spawn(argv, options = {}) {
      const quoted = argv.map((a) => `'${String(a).replaceAll("'", "'\\''")}'`).join(' ');
      return spawn('sh', ['-c', `echo $$ > ${join(dir, 'cgroup.procs')} && exec ${quoted}`], options);
    },
    counters() {
      const oom = Object.fromEntries(
        read('memory.oom_control')
          .trim()
          .split('\n')
          .map((l) => l.split(' '))
          .map(([k, v]) => [k, Number(v)]),
      );
      const s = stat();
      return {
        limit: Number(read('memory.limit_in_bytes')),
        usage: Number(read('memory.usage_in_bytes')),
        maxUsage: Number(read('memory.max_usage_in_bytes')),
        failcnt: Number(read('memory.failcnt')),
        oomKills: oom.oom_kill ?? 0,
        underOom: oom.under_oom ?? 0,
        rss: s.total_rss,
        cache: s.total_cache,
      };
    },
    /** Kills what is still inside (a worker stuck in a fault survives its primary), then removes the group. */
    remove() {
      const left = () => read('cgroup.procs').trim().split('\n').filter(Boolean).map(Number);
      for (const pid of left()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      for (let i = 0; i < 50 && existsSync(dir); i++) {
        try {
          rmdirSync(dir);
        } catch {
          spawnSync('sleep', ['0.1']);
        }
      }
    },
  };
}
