/** Writes one operational event (swap, refusal, shutdown, worker exit) as a JSON line. */
export type LogEvent = (entry: Record<string, unknown>) => void;

/** Events as JSON lines on `stream`, each stamped with the time and this process's pid. */
export function eventLogger(stream: NodeJS.WritableStream = process.stderr): LogEvent {
  return (entry) => stream.write(`${JSON.stringify({ time: new Date().toISOString(), pid: process.pid, ...entry })}\n`);
}
