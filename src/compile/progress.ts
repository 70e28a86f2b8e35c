/**
 * Progress on a terminal: one line rewritten in place (phase, rows, rows/s), at most 10 times a
 * second. Silent when stderr is not a TTY, so logs and CI output stay clean.
 */
export interface PhaseTiming {
  readonly phase: string;
  readonly seconds: number;
  readonly rows: number;
}

export class Progress {
  /** Every finished phase, in order: what the compile summary reports. */
  readonly timings: PhaseTiming[] = [];
  private phase = '';
  private rows = 0;
  private phaseStart = Date.now();
  private lastDraw = 0;
  private readonly enabled: boolean;

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    enabled?: boolean,
  ) {
    this.enabled = enabled ?? Boolean(stream.isTTY);
  }

  start(phase: string): void {
    this.phase = phase;
    this.rows = 0;
    this.phaseStart = Date.now();
    this.draw(true);
  }

  /** Counts one row; cheap enough to call per row. */
  tick = (): void => {
    this.rows++;
    if ((this.rows & 1023) === 0) this.draw(false);
  };

  /** Counts `n` rows at once (rows done on a worker thread). */
  add(n: number): void {
    this.rows += n;
    this.draw(false);
  }

  private draw(force: boolean): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const seconds = Math.max(0.001, (now - this.phaseStart) / 1000);
    const rate = Math.round(this.rows / seconds).toLocaleString('en-US');
    this.stream.write(`\r\x1b[2K${this.phase}: ${this.rows.toLocaleString('en-US')} rows, ${rate} rows/s, ${seconds.toFixed(1)} s`);
  }

  done(): void {
    this.timings.push({ phase: this.phase, seconds: (Date.now() - this.phaseStart) / 1000, rows: this.rows });
    if (this.enabled) this.stream.write('\r\x1b[2K');
  }
}
