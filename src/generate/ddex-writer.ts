import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newReleaseMessage, purgeReleaseMessage, type MessageHeader } from './ddex-message.js';
import type { CatalogShape, CatalogWriter, GenArtist, GenRelease } from './model.js';
import { RevisionPlan } from './revisions.js';

/** The first message's creation time; each later message is a second later. */
const FIRST_MESSAGE = Date.UTC(2026, 10, 1);
const MESSAGES_PER_FOLDER = 1000;

const folder = (n: number): string => String(Math.floor(n / MESSAGES_PER_FOLDER)).padStart(4, '0');

/**
 * A DDEX delivery of the catalog: one ERN 4.3 NewReleaseMessage per album, then per
 * compilation, in folders of 1,000 messages (`0000/al0.xml` ... `0100/comp3.xml`), created one
 * second apart in that order. Then `updates/` (folders of 1,000 too): for the albums
 * RevisionPlan picks, a NewReleaseMessage with the title changed to `<title> (Deluxe Edition)`
 * or a PurgeReleaseMessage, all created after every original message, so a batch import of the
 * whole directory exercises updates and takedowns. Each message is written as soon as its album
 * is drawn; nothing is kept.
 */
export class DdexCatalogWriter implements CatalogWriter {
  private readonly plan: RevisionPlan;
  private readonly messages: number;
  private sent = 0;
  private revised = 0;
  private recordings = 0;
  private readonly counts = { updates: 0, purges: 0 };
  private readonly folders = new Set<string>();
  /** Distinct ISRCs of the albums (a shared one is the previous song's), and the previous song. */
  private isrcs = 0;
  private previous = { isrc: '', survives: false };
  /** ISRCs of taken-down albums' songs: whether a release that stays also has them. */
  private readonly purgedIsrcs = new Map<string, boolean>();

  constructor(
    private readonly out: string,
    private readonly shape: CatalogShape,
  ) {
    // Only what an earlier run of this writer left: numbered folders and updates/.
    for (const name of existsSync(out) ? readdirSync(out) : []) {
      if (/^\d{4}$/.test(name) || name === 'updates') rmSync(join(out, name), { recursive: true, force: true });
    }
    this.plan = new RevisionPlan(shape.seed, shape.albumCount);
    this.messages = shape.albumCount + shape.compilationCount;
  }

  private header(release: GenRelease, version: number, second: number): MessageHeader {
    const threadId = `omm-gen-${this.shape.seed}-${release.id}`;
    const created = new Date(FIRST_MESSAGE + second * 1000).toISOString().replace('.000Z', 'Z');
    return { threadId, messageId: `${threadId}-${version}`, created };
  }

  private write(dir: string, name: string, xml: string): void {
    if (!this.folders.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.folders.add(dir);
    }
    writeFileSync(join(dir, name), xml);
  }

  artist(_artist: GenArtist): void {
    // Artists travel inside the messages, as the parties of each release.
  }

  release(release: GenRelease): void {
    const n = this.sent++;
    this.recordings += release.tracks.length;
    this.write(join(this.out, folder(n)), `${release.id}.xml`, newReleaseMessage(release, this.shape, this.header(release, 1, n)));
    const revision = release.kind === 'album' ? this.plan.next() : null;
    this.countSongs(release, revision !== 'purge');
    if (revision === null) return;
    const k = this.revised++;
    const h = this.header(release, 2, this.messages + k);
    const dir = join(this.out, 'updates', folder(k));
    if (revision === 'update') {
      this.counts.updates++;
      this.write(dir, `${release.id}-update.xml`, newReleaseMessage(release, this.shape, h, `${release.name} (Deluxe Edition)`));
    } else {
      this.counts.purges++;
      this.write(dir, `${release.id}-purge.xml`, purgeReleaseMessage(release, h));
    }
  }

  /**
   * Counts the songs a batch import of the delivery keeps: a recording is its ISRC, so songs that
   * share one are one, and the songs of a taken-down album are gone unless a release that stays
   * (a compilation, or the neighbour sharing its ISRC) has them too.
   */
  private countSongs(release: GenRelease, survives: boolean): void {
    for (const { song } of release.tracks) {
      const { isrc } = song;
      if (release.kind === 'album') {
        if (!survives) this.purgedIsrcs.set(isrc, (this.purgedIsrcs.get(isrc) ?? false) || (this.previous.isrc === isrc && this.previous.survives));
        if (isrc !== this.previous.isrc) this.isrcs++;
        this.previous = { isrc, survives };
      }
      if (survives && this.purgedIsrcs.has(isrc)) this.purgedIsrcs.set(isrc, true);
    }
  }

  end(): Record<string, number> {
    let gone = 0;
    for (const kept of this.purgedIsrcs.values()) if (!kept) gone++;
    return {
      messages: this.sent,
      'sound recordings': this.recordings,
      updates: this.counts.updates,
      takedowns: this.counts.purges,
      'songs once imported': this.isrcs - gone,
    };
  }
}
