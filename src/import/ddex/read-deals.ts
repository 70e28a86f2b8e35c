import type { DealSummary } from './model.js';
import { readDate, readInstant } from './values.js';
import { child, childText, isTrue, kids, type XNode } from './xnode.js';

/** One Deal, reduced to three facts. A DealList can hold hundreds; only these are kept. */
export interface DealFacts {
  /** 3.8 DealTerms TakeDown (or AllDealsCancelled) = true. ERN 4 has no such flag: it ends deals. */
  readonly takedown: boolean;
  /** YYYY-MM-DD, the earliest start of its validity periods. */
  readonly start?: string;
  /** Normalised instant of its latest end; undefined when a period has none. */
  readonly end?: string;
}

/** A Deal element's facts. Unreadable dates throw E_IMPORT_VALUE. */
export function readDeal(file: string, deal: XNode): DealFacts {
  const terms = child(deal, 'DealTerms');
  const takedown = isTrue(childText(terms, 'TakeDown')) || isTrue(childText(terms, 'AllDealsCancelled'));
  let start: string | undefined;
  let end: string | undefined;
  let openEnded = false;
  const periods = kids(terms, 'ValidityPeriod');
  for (const period of periods) {
    const from = readDate(file, child(period, 'StartDate')) ?? readDate(file, child(period, 'StartDateTime'));
    if (from !== undefined && from.length === 10 && (start === undefined || from < start)) start = from;
    const until = readInstant(file, child(period, 'EndDate'), true) ?? readInstant(file, child(period, 'EndDateTime'), false);
    if (until === undefined) openEnded = true;
    else if (end === undefined || until > end) end = until;
  }
  return { takedown, start, end: openEnded || periods.length === 0 ? undefined : end };
}

/** Adds a deal's facts to the summary of one release reference. */
export function addDeal(summary: DealSummary | undefined, deal: DealFacts): DealSummary {
  const s = summary ?? { count: 0, openEnded: false };
  s.count++;
  if (deal.takedown) return s;
  if (deal.end === undefined) s.openEnded = true;
  else if (s.latestEnd === undefined || deal.end > s.latestEnd) s.latestEnd = deal.end;
  if (deal.start !== undefined && (s.earliestStart === undefined || deal.start < s.earliestStart)) s.earliestStart = deal.start;
  return s;
}

/**
 * Whether a release's deals take it down as of the message's creation: it has deals, and every
 * one is a takedown or ends on or before `created`.
 */
export function dealsTakeDown(summary: DealSummary | undefined, created: string): boolean {
  if (!summary || summary.count === 0 || summary.openEnded) return false;
  return summary.latestEnd === undefined || summary.latestEnd <= created;
}
