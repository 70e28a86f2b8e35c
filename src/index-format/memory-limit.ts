import { readFileSync } from 'node:fs';

/** A file's first line as a number of bytes, or Infinity ("max", absent, unreadable). */
function bytesIn(path: string): number {
  try {
    const text = readFileSync(path, 'utf8').trim();
    const n = Number(text);
    return text === 'max' || !Number.isFinite(n) ? Infinity : n;
  } catch {
    return Infinity;
  }
}

/**
 * The memory this process may use, page cache included: the smaller of the machine's memory and
 * the limit of its memory cgroup (v2 `memory.max`, or v1 `memory.limit_in_bytes`, of the group
 * /proc/self/cgroup names). Infinity where neither can be read.
 */
export function memoryLimitBytes(): number {
  let machine = Infinity;
  try {
    const kib = /^MemTotal:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1];
    if (kib) machine = Number(kib) * 1024;
  } catch {
    // not Linux
  }
  let group = Infinity;
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers, path] = line.split(':');
      if (path === undefined) continue;
      if (controllers === '') group = Math.min(group, bytesIn(`/sys/fs/cgroup${path}/memory.max`));
      else if (controllers.split(',').includes('memory')) group = Math.min(group, bytesIn(`/sys/fs/cgroup/memory${path}/memory.limit_in_bytes`));
    }
  } catch {
    // no cgroups
  }
  return Math.min(machine, group);
}
