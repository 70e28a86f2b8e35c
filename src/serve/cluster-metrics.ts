import cluster, { type Worker } from 'node:cluster';

/**
 * /metrics across `--workers N`: a scrape lands on one worker, so that worker asks the primary,
 * the primary collects every worker's exposition and merges them into one (each series carries
 * its worker label; each metric family is described once).
 */
const ASK = 'omm-metrics-ask';
const COLLECT = 'omm-metrics-collect';
const TEXT = 'omm-metrics-text';
const MERGED = 'omm-metrics-merged';
const COLLECT_TIMEOUT_MS = 2000;

interface MetricsMessage {
  readonly type: string;
  readonly id: number;
  readonly text?: string;
}

const isMessage = (m: unknown): m is MetricsMessage =>
  typeof m === 'object' && m !== null && typeof (m as MetricsMessage).type === 'string' && typeof (m as MetricsMessage).id === 'number';

/** Merges Prometheus text expositions: one HELP/TYPE per family, samples in order of arrival. */
export function mergeExpositions(texts: readonly string[]): string {
  const families = new Map<string, { head: string[]; samples: string[] }>();
  for (const text of texts) {
    let current: { head: string[]; samples: string[] } | null = null;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const help = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (help) {
        let family = families.get(help[2]);
        if (!family) families.set(help[2], (family = { head: [], samples: [] }));
        if (!family.head.includes(line)) family.head.push(line);
        current = family;
      } else if (current) current.samples.push(line);
    }
  }
  return `${[...families.values()].flatMap((f) => [...f.head, ...f.samples]).join('\n')}\n`;
}

/** In a worker: answers the primary's collect requests, and returns the merged metrics on demand. */
export function workerMetrics(render: () => string): () => Promise<string> {
  let next = 0;
  const waiting = new Map<number, (text: string) => void>();
  process.on('message', (m: unknown) => {
    if (!isMessage(m)) return;
    if (m.type === COLLECT) process.send?.({ type: TEXT, id: m.id, text: render() });
    else if (m.type === MERGED) {
      waiting.get(m.id)?.(m.text ?? '');
      waiting.delete(m.id);
    }
  });
  return () =>
    new Promise<string>((resolve) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(render());
      }, COLLECT_TIMEOUT_MS * 2);
      waiting.set(id, (text) => {
        clearTimeout(timer);
        resolve(text);
      });
      process.send?.({ type: ASK, id });
    });
}

/** In the primary: serves workers' ASK messages by collecting every worker's text. */
export function serveClusterMetrics(): void {
  let nextCollect = 0;
  cluster.on('message', (asker: Worker, m: unknown) => {
    if (!isMessage(m) || m.type !== ASK) return;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
    const id = nextCollect++;
    const texts: string[] = [];
    let done = false;
    const reply = () => {
      if (done) return;
      done = true;
      for (const w of workers) w.off('message', onText);
      if (asker.isConnected()) asker.send({ type: MERGED, id: m.id, text: mergeExpositions(texts) });
    };
    const onText = (t: unknown) => {
      if (!isMessage(t) || t.type !== TEXT || t.id !== id) return;
      texts.push(t.text ?? '');
      if (texts.length === workers.length) reply();
    };
    for (const w of workers) {
      w.on('message', onText);
      w.send({ type: COLLECT, id });
    }
    setTimeout(reply, COLLECT_TIMEOUT_MS).unref();
  });
}
