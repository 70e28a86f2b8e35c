import type { CatalogSink, ImportReport, SourceUnit } from '../stage/staged.js';
import { MessageCollector } from './collect.js';
import { messageFiles } from './inputs.js';
import { stageMessage } from './stage-message.js';
import { streamXml } from './xml-stream.js';

export interface DdexOptions {
  /** Resolves relative artwork file names (`0094631432057.jpg`) to absolute URLs; without it they are left out. */
  readonly artworkBaseUrl?: string;
}

/**
 * Reads DDEX ERN messages (3.8.x and 4.1–4.3; NewReleaseMessage and PurgeReleaseMessage) into the
 * catalog stage. `inputs` are files or directories (walked for `*.xml`, sorted); one file is one
 * message and one source unit. Each file is streamed with saxes in chunks, and only its own
 * compact model is held until it ends; then its release (or takedown) goes to the sink and the
 * model is dropped, so memory does not grow with the number of files.
 *
 * Throws ImportError: E_IMPORT_SYNTAX for malformed or truncated XML, E_IMPORT_FORMAT for what is
 * not an ERN message it reads, E_IMPORT_VALUE for an unreadable duration, date, number or
 * creation time, E_IMPORT_IO for an input it cannot read. Items left out go to report.skip.
 */
export async function readDdex(inputs: readonly string[], sink: CatalogSink, report: ImportReport, options: DdexOptions = {}): Promise<void> {
  if (options.artworkBaseUrl !== undefined && !/^https?:\/\/[^/]/i.test(options.artworkBaseUrl)) {
    throw new TypeError(`artworkBaseUrl must be an absolute http(s) URL, not "${options.artworkBaseUrl}"`);
  }
  for await (const file of messageFiles(inputs)) {
    const collector = new MessageCollector(file);
    const { bytes, digest } = await streamXml(file, collector);
    const model = collector.finish();
    report.unit('message', bytes);
    const unit: SourceUnit = { where: file, created: model.created, digest };
    stageMessage(collector.message.kind, model, { unit, sink, report, artworkBaseUrl: options.artworkBaseUrl });
  }
}
