import type { ReleaseIds } from './ids.js';

/**
 * The compact model of one message, kept from its first element to its last and then dropped:
 * what the catalog needs of each party, recording, image and main release, and a summary of the
 * deals per release reference. No element trees survive the item they came from.
 */

/** A display artist as the message credits them: inline (3.8) or by party reference (4.x). */
export interface Credit {
  readonly name?: string;
  readonly isni?: string;
  readonly partyRef?: string;
}

export interface Party {
  readonly name?: string;
  readonly isni?: string;
}

export interface Recording {
  readonly ref: string;
  /** `file:line: path`, for skips and warnings. */
  readonly place: string;
  readonly isrc?: string;
  readonly title?: string;
  readonly durationMs?: number;
  readonly credits: readonly Credit[];
  readonly artistName?: string;
  readonly explicit?: boolean;
  readonly pLine?: string;
  readonly genres: readonly string[];
  readonly releaseDate?: string;
}

export interface Image {
  readonly ref: string;
  readonly frontCover: boolean;
  /** An absolute URL or a path relative to the delivery. */
  readonly file?: string;
}

/** One recording's place on the release, as its ResourceGroups give it. */
export interface Slot {
  readonly ref: string;
  readonly disc: number;
  /** Absent when the item has no SequenceNumber. */
  readonly track?: number;
}

export interface MainRelease {
  readonly ref?: string;
  readonly place: string;
  /** IsMainRelease="true" (3.8), or the Release element of a 4.x ReleaseList. */
  readonly flagged: boolean;
  readonly ids: ReleaseIds;
  readonly title?: string;
  readonly credits: readonly Credit[];
  readonly artistName?: string;
  readonly label?: string;
  readonly labelPartyRef?: string;
  readonly releaseDate?: string;
  readonly genres: readonly string[];
  readonly pLine?: string;
  readonly cLine?: string;
  /** From the ResourceGroups, in document order; empty when the release has none. */
  readonly slots: readonly Slot[];
  /** ReleaseResourceReferenceList in order (3.8): the tracks when there are no groups. */
  readonly listed: readonly string[];
  /** Every resource the release names anywhere (listed, grouped or linked): where its cover is found. */
  readonly resources: ReadonlySet<string>;
}

/** What the catalog needs of a release's deals: whether any is still live, and the first start. */
export interface DealSummary {
  count: number;
  /** A deal that is not a takedown and has no end. */
  openEnded: boolean;
  /** The latest end of the deals that are not takedowns, as a normalised instant. */
  latestEnd?: string;
  /** The earliest start (YYYY-MM-DD) of the deals that are not takedowns. */
  earliestStart?: string;
}

export interface PurgedRelease {
  readonly place: string;
  readonly ids: ReleaseIds;
  readonly title?: string;
}

export interface MessageModel {
  created?: string;
  readonly parties: Map<string, Party>;
  readonly recordings: Map<string, Recording>;
  readonly images: Map<string, Image>;
  /** Releases that may be the main one (not track releases), in document order. */
  readonly releases: MainRelease[];
  readonly deals: Map<string, DealSummary>;
  readonly purged: PurgedRelease[];
}

export function emptyModel(): MessageModel {
  return { parties: new Map(), recordings: new Map(), images: new Map(), releases: [], deals: new Map(), purged: [] };
}
