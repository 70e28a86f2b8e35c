import type { ErnFamily } from './ern-root.js';
import type { MainRelease, PurgedRelease, Slot } from './model.js';
import { blocksOf, firstBest, placeOf, readCredits, readReleaseIds, readTitle, type ReadContext } from './read-common.js';
import { genresOf, lineOf, readCount, readDate } from './values.js';
import { best, child, childText, descendants, isTrue, kids, textOf, type XNode } from './xnode.js';

/** A 3.8 Release whose ReleaseType is TrackRelease, or any 4.x TrackRelease: not an album. */
export function isTrackRelease(node: XNode): boolean {
  return node.name === 'TrackRelease' || kids(node, 'ReleaseType').some((t) => textOf(t) === 'TrackRelease');
}

/** The recordings' places in one group and the groups inside it, all on `disc`, in document order. */
function collectItems(group: XNode, disc: number, file: string, out: Slot[]): void {
  for (const c of group.children) {
    if (c.name === 'ResourceGroupContentItem') {
      const ref = childText(c, 'ReleaseResourceReference');
      if (ref !== undefined) out.push({ ref, disc, track: readCount(file, child(c, 'SequenceNumber')) });
    } else if (c.name === 'ResourceGroup') {
      collectItems(c, disc, file, out);
    }
  }
}

/**
 * Disc and track of each item of a release's ResourceGroups. A group nested in the top one is a
 * disc (its SequenceNumber, else its place among its siblings), and groups nested deeper belong to
 * its disc; the top group's own items are on disc 1 in 3.8 (a single level is one disc) and on
 * the top group's SequenceNumber in 4.x. Several top groups (3.8 allows them) are one disc each.
 */
export function readSlots(tops: readonly XNode[], family: ErnFamily, file: string): Slot[] {
  const slots: Slot[] = [];
  tops.forEach((top, i) => {
    const own = readCount(file, child(top, 'SequenceNumber'));
    const topDisc = family === '4' || tops.length > 1 ? (own ?? i + 1) : 1;
    let nested = 0;
    for (const c of top.children) {
      if (c.name === 'ResourceGroupContentItem') {
        const ref = childText(c, 'ReleaseResourceReference');
        if (ref !== undefined) slots.push({ ref, disc: topDisc, track: readCount(file, child(c, 'SequenceNumber')) });
      } else if (c.name === 'ResourceGroup') {
        nested++;
        collectItems(c, readCount(file, child(c, 'SequenceNumber')) ?? nested, file, slots);
      }
    }
  });
  return slots;
}

/** Release date candidates in order: 3.8 ReleaseDetailsByTerritory, then the Release's own (4.x and 3.8 Global…). */
const DATE_FIELDS = ['ReleaseDate', 'OriginalReleaseDate', 'GlobalReleaseDate', 'GlobalOriginalReleaseDate'];

/** A release that may be the main one, reduced; null for a track release. Bad dates and numbers throw E_IMPORT_VALUE. */
export function readRelease(node: XNode, family: ErnFamily, ctx: ReadContext): MainRelease | null {
  if (isTrackRelease(node)) return null;
  const blocks = blocksOf(node, 'ReleaseDetailsByTerritory', ctx);
  const details = blocks.slice(1);
  let releaseDate: string | undefined;
  for (const name of DATE_FIELDS) {
    for (const block of [...details, node]) releaseDate ??= readDate(ctx.file, best(kids(block, name), ctx.language));
  }
  const groupBlock = blocks.find((b) => child(b, 'ResourceGroup'));
  const resources = new Set<string>();
  for (const name of ['ReleaseResourceReference', 'LinkedReleaseResourceReference']) {
    for (const ref of descendants(node, name)) {
      const text = textOf(ref);
      if (text !== undefined) resources.add(text);
    }
  }
  return {
    ref: childText(node, 'ReleaseReference'),
    place: placeOf(ctx, node),
    flagged: family === '4' ? node.name === 'Release' : isTrue(node.attrs.IsMainRelease) || isTrue(childText(node, 'IsMainRelease')),
    ids: readReleaseIds(node),
    title: readTitle(blocks, ctx),
    credits: readCredits(blocks, ctx),
    artistName: textOf(firstBest(blocks, 'DisplayArtistName', ctx)),
    label: textOf(firstBest(details, 'LabelName', ctx)),
    labelPartyRef: textOf(best(kids(node, 'ReleaseLabelReference'), ctx.language)),
    releaseDate,
    genres: genresOf(firstBest(blocks, 'Genre', ctx)),
    pLine: lineOf(firstBest(blocks, 'PLine', ctx), 'P'),
    cLine: lineOf(firstBest(blocks, 'CLine', ctx), 'C'),
    slots: groupBlock ? readSlots(kids(groupBlock, 'ResourceGroup'), family, ctx.file) : [],
    listed: kids(child(node, 'ReleaseResourceReferenceList'), 'ReleaseResourceReference')
      .map(textOf)
      .filter((r): r is string => r !== undefined),
    resources,
  };
}

/** A PurgedRelease: its ids and title. */
export function readPurged(node: XNode, ctx: ReadContext): PurgedRelease {
  const title = best(kids(node, 'Title'), ctx.language);
  return { place: placeOf(ctx, node), ids: readReleaseIds(node), title: childText(title, 'TitleText') };
}
