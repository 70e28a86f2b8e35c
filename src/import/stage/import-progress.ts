import { inputFiles } from '../input-files.js';

/** Total bytes of the inputs' files (directories walked); what a progress bar fills. */
export async function inputBytes(inputs: readonly string[]): Promise<number> {
  let total = 0;
  for await (const file of inputFiles(inputs)) total += file.size;
  return total;
}

/**
 * One line on a terminal, rewritten at most 10 times a second: units read, bytes read against
 * the inputs' size as a bar (compressed inputs count their decompressed bytes, so their bar
 * stops at 99 % until the end), rate. Silent when the stream is not a TTY.
 */
export class ImportProgress {
  private units = 0;
  private bytes = 0;
  private lastDraw = 0;
  private readonly started = Date.now();
  private readonly enabled: boolean;

  constructor(
    private readonly what: string,
    private readonly totalBytes: number,
    private readonly stream: NodeJS.WriteStream | null = process.stderr,
  ) {
    this.enabled = Boolean(stream?.isTTY);
  }

  add(bytes: number): void {
    this.units++;
    this.bytes += bytes;
    if (!this.enabled || (this.units & 63) !== 0) return;
    const now = Date.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const fraction = this.totalBytes > 0 ? Math.min(0.99, this.bytes / this.totalBytes) : 0;
    const bar = '#'.repeat(Math.round(fraction * 20)).padEnd(20, '.');
    const seconds = Math.max(0.001, (now - this.started) / 1000);
    const rate = Math.round(this.units / seconds).toLocaleString('en-US');
    this.stream!.write(
      `\r\x1b[2K${this.what} [${bar}] ${Math.floor(fraction * 100)}% ${this.units.toLocaleString('en-US')} read, ${(this.bytes / 1048576).toFixed(0)} MiB, ${rate}/s`,
    );
  }

  phase(text: string): void {
    if (this.enabled) this.stream!.write(`\r\x1b[2K${this.what}: ${text}`);
  }

  done(): void {
    if (this.enabled) this.stream!.write('\r\x1b[2K');
  }
}
