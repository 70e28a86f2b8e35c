import type { Image, Recording } from './model.js';
import { blocksOf, firstBest, placeOf, readCredits, readTitle, type ReadContext } from './read-common.js';
import { explicitOf, genresOf, lineOf, readDate, readDuration } from './values.js';
import { byFitness, child, childText, kids, textOf, type XNode } from './xnode.js';

/**
 * The ISRC as written: 3.8 SoundRecordingId/ISRC, 4.1 ResourceId/ISRC, 4.2+
 * SoundRecordingEdition/ResourceId/ISRC (the first edition that has one).
 */
function isrcOf(node: XNode): string | undefined {
  for (const id of [...kids(node, 'SoundRecordingId'), ...kids(node, 'ResourceId')]) {
    const isrc = childText(id, 'ISRC');
    if (isrc !== undefined) return isrc;
  }
  for (const edition of kids(node, 'SoundRecordingEdition')) {
    for (const id of kids(edition, 'ResourceId')) {
      const isrc = childText(id, 'ISRC');
      if (isrc !== undefined) return isrc;
    }
  }
  return undefined;
}

/** A SoundRecording (3.8 or 4.x) reduced to what a song needs. Bad durations and dates throw E_IMPORT_VALUE. */
export function readRecording(node: XNode, ctx: ReadContext): Recording {
  const blocks = blocksOf(node, 'SoundRecordingDetailsByTerritory', ctx);
  const pLines = [...kids(node, 'PLine'), ...kids(node, 'SoundRecordingEdition').flatMap((e) => kids(e, 'PLine'))];
  const pLine = pLines.length > 0 ? lineOf(byFitness(pLines, ctx.language)[0], 'P') : lineOf(firstBest(blocks.slice(1), 'PLine', ctx), 'P');
  let releaseDate: string | undefined;
  for (const name of ['ResourceReleaseDate', 'OriginalResourceReleaseDate', 'FirstPublicationDate']) {
    releaseDate ??= readDate(ctx.file, firstBest(blocks, name, ctx));
  }
  return {
    ref: childText(node, 'ResourceReference') ?? '',
    place: placeOf(ctx, node),
    isrc: isrcOf(node),
    title: readTitle(blocks, ctx),
    durationMs: readDuration(ctx.file, child(node, 'Duration')),
    credits: readCredits(blocks, ctx),
    artistName: textOf(firstBest(blocks, 'DisplayArtistName', ctx)),
    explicit: explicitOf(firstBest(blocks, 'ParentalWarningType', ctx)),
    pLine,
    genres: genresOf(firstBest(blocks, 'Genre', ctx)),
    releaseDate,
  };
}

/** A 3.8 File: its URL, else FilePath joined to FileName. */
function fileOf38(file: XNode | undefined): string | undefined {
  const url = childText(file, 'URL');
  if (url !== undefined) return url;
  const name = childText(file, 'FileName');
  if (name === undefined) return undefined;
  const dir = childText(file, 'FilePath')?.replace(/\\/g, '/');
  return dir ? `${dir.replace(/\/+$/, '')}/${name}` : name;
}

/** An Image: whether it is the front cover, and its file (3.8 ImageDetailsByTerritory/TechnicalImageDetails/File, 4.x TechnicalDetails/File/URI). */
export function readImage(node: XNode, ctx: ReadContext): Image {
  const type = childText(node, 'ImageType') ?? childText(node, 'Type');
  let file: string | undefined;
  for (const details of byFitness(kids(node, 'ImageDetailsByTerritory'), ctx.language)) {
    for (const technical of kids(details, 'TechnicalImageDetails')) file ??= fileOf38(child(technical, 'File'));
  }
  for (const technical of byFitness(kids(node, 'TechnicalDetails'), ctx.language)) {
    file ??= childText(child(technical, 'File'), 'URI') ?? fileOf38(child(technical, 'File'));
  }
  return { ref: childText(node, 'ResourceReference') ?? '', frontCover: type === 'FrontCoverImage', file };
}
