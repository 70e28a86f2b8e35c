/**
 * The MusicBrainz reader: JSON dumps (`mbdump/release`, `mbdump/recording`, `mbdump/artist`, one
 * entity per line; plain, `.gz`, `.xz`, or inside `release.tar.xz` and the like) and WS/2 JSON
 * responses (a lookup of one release, recording or artist, or a browse or search list of them),
 * handed to a CatalogSink as releases, songs and artists. Streams with constant memory: only the
 * current line is held (a WS/2 document, read whole, is capped at 64 MiB).
 *
 * Each unit (a dump line, a WS/2 document, an item of a WS/2 list) is a SourceUnit whose `where`
 * is `file:line` (`archive.tar.xz:mbdump/release:line` in an archive, `file` for a document),
 * whose `created` is '' (dumps have no time per entity, and a search response's `created` is not
 * used: its releases are partial and must not replace a dump's), and whose digest is that of the
 * line's text.
 */
import type { CatalogSink, ImportReport } from '../stage/staged.js';
import { deliverUnit, type EntityKind } from './entity.js';
import { listInputs, tarMemberHint, type InputFile } from './input-files.js';
import { readJsonUnits } from './json-units.js';
import { guardedChunks, openBytes } from './open-input.js';
import { tarMembers } from './tar-members.js';

export async function readMusicBrainz(inputs: readonly string[], sink: CatalogSink, report: ImportReport): Promise<void> {
  for (const input of await listInputs(inputs, report)) {
    await readInput(input, sink, report);
  }
}

async function readInput(input: InputFile, sink: CatalogSink, report: ImportReport): Promise<void> {
  const bytes = openBytes(input.path, input.compression);
  try {
    if (!input.tar) {
      await readUnits(guardedChunks(bytes, input.path), input.path, input.hint, sink, report);
      return;
    }
    let read = 0;
    for await (const member of tarMembers(bytes, input.path)) {
      const file = `${input.path}:${member.path}`;
      const hint = tarMemberHint(member.path, file, report);
      if (!hint) continue;
      await readUnits(guardedChunks(member.body, file), file, hint, sink, report);
      read++;
    }
    if (read === 0) report.warn(input.path, 'no mbdump/release, mbdump/recording or mbdump/artist member; nothing read');
  } finally {
    bytes.destroy();
  }
}

async function readUnits(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  hint: EntityKind | undefined,
  sink: CatalogSink,
  report: ImportReport,
): Promise<void> {
  let units = 0;
  for await (const unit of readJsonUnits(chunks, file)) {
    report.unit(unit.kind, unit.bytes);
    deliverUnit(unit, hint, sink, report);
    units++;
  }
  if (units === 0) report.warn(file, 'empty: no MusicBrainz entity');
}
