// Memory and CPU of a process tree, read from /proc: a process and every descendant, summed.
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** A process and all its descendants (their pids), found through /proc/<pid>/task/<tid>/children. */
export function processTree(rootPid) {
  const out = [];
  const visit = (pid) => {
    out.push(pid);
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      return; // gone
    }
    for (const tid of tasks) {
      let children = '';
      try {
        children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ').filter(Boolean)) visit(Number(child));
    }
  };
  visit(rootPid);
  return out;
}

/** Resident memory of the tree in KiB: total, anonymous (the processes' own) and file-backed (mapped files). */
export function treeMemoryKiB(rootPid) {
  const sum = { rss: 0, anon: 0, file: 0 };
  for (const pid of processTree(rootPid)) {
    let status;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      continue;
    }
    const kib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    sum.rss += kib('VmRSS');
    sum.anon += kib('RssAnon');
    sum.file += kib('RssFile');
  }
  return sum;
}

/** Samples a tree's memory every `ms` until stopped; `peak()` gives the highest sums seen. */
export function sampleTreeMemory(rootPid, ms = 100) {
  const peak = { rss: 0, anon: 0, file: 0 };
  const take = () => {
    const now = treeMemoryKiB(rootPid);
    for (const k of Object.keys(peak)) peak[k] = Math.max(peak[k], now[k]);
  };
  take();
  const timer = setInterval(take, ms);
  return {
    peak: () => ({ ...peak }),
    stop: () => {
      clearInterval(timer);
      return { ...peak };
    },
  };
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

// Fields of /proc/<pid>/stat after the command, counted from its state (index 0): utime, stime,
// cutime, cstime (the 14th to 17th fields of the file).
const [UTIME, STIME, CUTIME, CSTIME] = [11, 12, 13, 14];

function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU seconds (user + system) of this process's children that have been waited for: the kernel
 * adds a child's whole tree to these counters when it is reaped. Read before and after a child.
 */
export function reapedChildrenCpuSeconds() {
  const fields = statFields('self');
  return (Number(fields[CUTIME]) + Number(fields[CSTIME])) / CLOCK_TICKS;
}

/** CPU seconds (user + system) a running process has used so far. */
export function processCpuSeconds(pid) {
  const fields = statFields(pid);
  return (Number(fields[UTIME]) + Number(fields[STIME])) / CLOCK_TICKS;
}

/**
 * Waits until a process is idle: under 5 % of a core over 250 ms (a server still working off
 * requests its load generator gave up on would slow whatever is measured next on its core).
 * Gives up after `timeoutMs` and says so.
 */
export async function waitIdle(pid, timeoutMs = 120_000) {
  const started = performance.now();
  let last = processCpuSeconds(pid);
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const now = processCpuSeconds(pid);
    if (now - last < 0.0125) return performance.now() - started;
    last = now;
    if (performance.now() - started > timeoutMs) {
      console.error(`process ${pid} still busy after ${timeoutMs} ms`);
      return performance.now() - started;
    }
  }
}
