import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** A text file written a line at a time through a 1 MiB buffer, synchronously (as RawCsvWriter). */
export class LineWriter {
  private buffer: string[] = [];
  private buffered = 0;
  private readonly fd: number;
  lines = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
  }

  write(line: string): void {
    this.buffer.push(line);
    this.buffered += line.length + 1;
    this.lines++;
    if (this.buffered > 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    writeSync(this.fd, `${this.buffer.join('\n')}\n`);
    this.buffer = [];
    this.buffered = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
