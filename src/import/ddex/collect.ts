import { ImportError } from '../import-error.js';
import { normalisedCreated } from '../stage/source-unit.js';
import { ernRoot, type ErnRoot } from './ern-root.js';
import { emptyModel, type MessageModel } from './model.js';
import { readParty, type ReadContext } from './read-common.js';
import { addDeal, readDeal, type DealFacts } from './read-deals.js';
import { readPurged, readRelease } from './read-release.js';
import { readImage, readRecording } from './read-resources.js';
import { valueError } from './values.js';
import { child, childText, textOf, type XNode } from './xnode.js';
import type { XmlHandlers } from './xml-stream.js';

/** The items of a message the reader builds trees for, by depth and their path below the root. */
const ITEMS: Readonly<Record<number, ReadonlySet<string>>> = {
  2: new Set(['MessageHeader', 'PurgedRelease']),
  3: new Set(['PartyList/Party', 'ResourceList/SoundRecording', 'ResourceList/Image', 'ReleaseList/Release']),
  4: new Set(['DealList/ReleaseDeal/DealReleaseReference', 'DealList/ReleaseDeal/Deal']),
};

/**
 * Streams one ERN message into its compact model: each item's tree is reduced as soon as it
 * closes, and a ReleaseDeal's deals are summarised per release reference when it closes.
 */
export class MessageCollector implements XmlHandlers {
  readonly model: MessageModel = emptyModel();
  private ern: ErnRoot | undefined;
  private ctx: ReadContext;
  private dealRefs: string[] = [];
  private dealFacts: DealFacts[] = [];

  constructor(private readonly file: string) {
    this.ctx = { file, language: undefined };
  }

  /** The message's root: its ERN family, version, kind and language. */
  get message(): ErnRoot {
    if (!this.ern) throw new Error('no root element yet');
    return this.ern;
  }

  root(name: string, uri: string, attrs: Readonly<Record<string, string>>, place: { line: number; column: number }): void {
    this.ern = ernRoot(this.file, name, uri, attrs, place);
    this.ctx = { file: this.file, language: this.ern.language };
  }

  capture(names: readonly string[]): boolean {
    const items = ITEMS[names.length];
    return items !== undefined && items.has(names.slice(1).join('/'));
  }

  open(names: readonly string[]): void {
    if (names.length === 3 && names[1] === 'DealList' && names[2] === 'ReleaseDeal') {
      this.dealRefs = [];
      this.dealFacts = [];
    }
  }

  close(names: readonly string[]): void {
    if (names.length === 3 && names[1] === 'DealList' && names[2] === 'ReleaseDeal') {
      for (const ref of this.dealRefs) {
        let summary = this.model.deals.get(ref);
        for (const deal of this.dealFacts) summary = addDeal(summary, deal);
        if (summary) this.model.deals.set(ref, summary);
      }
      this.dealRefs = [];
      this.dealFacts = [];
    }
  }

  item(node: XNode): void {
    const { model, ctx } = this;
    switch (node.name) {
      case 'MessageHeader':
        model.created = this.created(node);
        break;
      case 'PurgedRelease':
        model.purged.push(readPurged(node, ctx));
        break;
      case 'Party': {
        const ref = childText(node, 'PartyReference');
        if (ref !== undefined) model.parties.set(ref, readParty(node, ctx));
        break;
      }
      case 'SoundRecording': {
        const recording = readRecording(node, ctx);
        model.recordings.set(recording.ref, recording);
        break;
      }
      case 'Image': {
        const image = readImage(node, ctx);
        model.images.set(image.ref, image);
        break;
      }
      case 'Release': {
        const release = readRelease(node, this.message.family, ctx);
        if (release) model.releases.push(release);
        break;
      }
      case 'DealReleaseReference': {
        const ref = textOf(node);
        if (ref !== undefined) this.dealRefs.push(ref);
        break;
      }
      case 'Deal':
        this.dealFacts.push(readDeal(this.file, node));
        break;
    }
  }

  private created(header: XNode): string {
    const at = child(header, 'MessageCreatedDateTime');
    const text = textOf(at);
    if (!at || text === undefined) throw valueError(this.file, header, 'the message has no MessageCreatedDateTime');
    const created = normalisedCreated(text);
    if (created === null) throw valueError(this.file, at, `MessageCreatedDateTime "${text}" is not a date and time (xs:dateTime)`);
    return created;
  }

  /** After the last element: the model, with its creation time checked. */
  finish(): MessageModel & { created: string } {
    const { model } = this;
    if (model.created === undefined) {
      throw new ImportError(
        'E_IMPORT_VALUE',
        { file: this.file, path: `${this.message.kind}/MessageHeader/MessageCreatedDateTime` },
        'the message has no MessageHeader/MessageCreatedDateTime',
      );
    }
    return model as MessageModel & { created: string };
  }
}
