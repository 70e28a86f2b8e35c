import { formatPlace } from '../import-error.js';
import { normalizeIsni, type ReleaseIds } from './ids.js';
import type { Credit, Party } from './model.js';
import { withSubTitle } from './values.js';
import { best, byFitness, child, childText, isTrue, kids, pathOf, textOf, type XNode } from './xnode.js';

/** What every item reader needs: the file as named in messages, and the message's language. */
export interface ReadContext {
  readonly file: string;
  readonly language: string | undefined;
}

/** `file:line: path` of an element, for skips and warnings. */
export const placeOf = (ctx: ReadContext, node: XNode): string => formatPlace({ file: ctx.file, line: node.line, path: pathOf(node) });

/**
 * Where an item's fields may be: the item itself (4.x, and 3.8's territory-free fields), then its
 * 3.8 …DetailsByTerritory blocks, Worldwide first. A field is read from the first block that has it.
 */
export const blocksOf = (node: XNode, detailsName: string, ctx: ReadContext): XNode[] => [node, ...byFitness(kids(node, detailsName), ctx.language)];

/** The best-fitting element named `name` in the first block that has one. */
export function firstBest(blocks: readonly XNode[], name: string, ctx: ReadContext): XNode | undefined {
  for (const block of blocks) {
    const found = kids(block, name);
    if (found.length > 0) return best(found, ctx.language);
  }
  return undefined;
}

/**
 * A title with its subtitle: 3.8 ReferenceTitle, else 4.x DisplayTitleText (or DisplayTitle's
 * TitleText) with DisplayTitle's SubTitle, else 3.8's per-territory Title (DisplayTitle, then
 * FormalTitle, then any).
 */
export function readTitle(blocks: readonly XNode[], ctx: ReadContext): string | undefined {
  const [node, ...details] = blocks;
  const reference = child(node, 'ReferenceTitle');
  const referenceText = childText(reference, 'TitleText');
  if (referenceText !== undefined) return withSubTitle(referenceText, childText(reference, 'SubTitle'));
  const displayTitle = best(kids(node, 'DisplayTitle'), ctx.language);
  const displayText = textOf(best(kids(node, 'DisplayTitleText'), ctx.language)) ?? childText(displayTitle, 'TitleText');
  if (displayText !== undefined) return withSubTitle(displayText, childText(displayTitle, 'SubTitle'));
  for (const block of details) {
    const titles = kids(block, 'Title').filter((t) => childText(t, 'TitleText') !== undefined);
    const ofType = (type: string) => titles.filter((t) => t.attrs.TitleType === type);
    const title = best(ofType('DisplayTitle'), ctx.language) ?? best(ofType('FormalTitle'), ctx.language) ?? best(titles, ctx.language);
    if (title) return withSubTitle(childText(title, 'TitleText')!, childText(title, 'SubTitle'));
  }
  return undefined;
}

/** A PartyName's full name, or its parts joined. */
function fullName(name: XNode | undefined): string | undefined {
  const full = childText(name, 'FullName');
  if (full !== undefined) return full;
  const parts = ['NamesBeforeKeyName', 'KeyName', 'NamesAfterKeyName'].map((n) => childText(name, n)).filter((p): p is string => p !== undefined);
  return parts.length > 0 ? parts.join(' ') : childText(name, 'AbbreviatedName');
}

/** An ISNI among PartyIds: 3.8 `<PartyId IsISNI="true">` (or Namespace ISNI), 4.x `<PartyId><ISNI>`. */
function isniOf(node: XNode): string | undefined {
  for (const id of kids(node, 'PartyId')) {
    const raw = childText(id, 'ISNI') ?? (isTrue(id.attrs.IsISNI) || id.attrs.Namespace?.toUpperCase() === 'ISNI' ? textOf(id) : undefined);
    const isni = raw !== undefined ? normalizeIsni(raw) : null;
    if (isni) return isni;
  }
  return undefined;
}

/** A party's name (the best-fitting PartyName: the message's own script first) and ISNI. */
export function readParty(node: XNode, ctx: ReadContext): Party {
  return { name: fullName(best(kids(node, 'PartyName'), ctx.language)), isni: isniOf(node) };
}

/** The display artists of the first block that has any, in SequenceNumber order (document order without one). */
export function readCredits(blocks: readonly XNode[], ctx: ReadContext): Credit[] {
  for (const block of blocks) {
    const artists = kids(block, 'DisplayArtist');
    if (artists.length === 0) continue;
    const seq = (a: XNode): number => {
      const text = a.attrs.SequenceNumber ?? childText(a, 'SequenceNumber');
      return text !== undefined && /^\d+$/.test(text) ? Number(text) : Number.MAX_SAFE_INTEGER;
    };
    return artists
      .map((a, i) => ({ a, i, seq: seq(a) }))
      .sort((x, y) => x.seq - y.seq || x.i - y.i)
      .map(({ a }): Credit => {
        const partyRef = childText(a, 'ArtistPartyReference');
        return partyRef !== undefined ? { partyRef } : readParty(a, ctx);
      });
  }
  return [];
}

/** The first ICPN, GRid and ProprietaryId among an element's ReleaseIds. */
export function readReleaseIds(node: XNode): ReleaseIds {
  const first = (name: string): string | undefined => {
    for (const id of kids(node, 'ReleaseId')) {
      const text = childText(id, name);
      if (text !== undefined) return text;
    }
    return undefined;
  };
  return { icpn: first('ICPN'), grid: first('GRid'), proprietaryId: first('ProprietaryId') };
}
