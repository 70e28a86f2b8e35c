/**
 * ERN 4.3 messages of the synthetic catalog, shaped like DDEX's published 4.3 sample
 * (`1 Audio.xml`): a NewReleaseMessage per album or compilation and a PurgeReleaseMessage for a
 * takedown. Every text goes through XmlLines, which escapes it.
 */
import { syntheticIsni } from './isni.js';
import type { CatalogShape, GenRelease, GenSong } from './model.js';
import { LABELS } from './vocabulary.js';
import { XmlLines } from './xml-text.js';

const ERN_NAMESPACE = 'http://ddex.net/xml/ern/43';
const SENDER = { id: 'PADPIDA2026OMMGEN1', name: 'OMM Synthetic Music' };
const RECIPIENT = { id: 'PADPIDA2026OMMCAT1', name: 'OMM Catalog' };
const WORLDWIDE = { ApplicableTerritoryCode: 'Worldwide' } as const;
const DEFAULT = { ApplicableTerritoryCode: 'Worldwide', IsDefault: 'true' } as const;

export interface MessageHeader {
  readonly threadId: string;
  readonly messageId: string;
  /** xs:dateTime. */
  readonly created: string;
}

/** `PT3M15S`, with milliseconds when there are any (`PT3M15.042S`) and hours past an hour. */
export function isoDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const fraction = ms % 1000;
  const hours = Math.floor(seconds / 3600);
  return `PT${hours > 0 ? `${hours}H` : ''}${Math.floor((seconds % 3600) / 60)}M${seconds % 60}${fraction > 0 ? `.${String(fraction).padStart(3, '0')}` : ''}S`;
}

/** A song's title without its version suffix, and the version as a subtitle (` - Live` → `Live`); null without one. */
export function splitVersion(song: GenSong): { title: string; subTitle: string } | null {
  const suffix = song.versionSuffix;
  if (suffix === null || !song.name.endsWith(suffix)) return null;
  const subTitle = suffix.startsWith(' - ') ? suffix.slice(3) : suffix.replace(/^ \((.*)\)$/, '$1');
  return { title: song.name.slice(0, -suffix.length), subTitle };
}

/** The credit as displayed: `Main feat. A & B`. */
export function songCredit(song: GenSong, shape: CatalogShape): string {
  const [main, ...featured] = song.credits.map((a) => shape.artistName(a));
  return featured.length > 0 ? `${main} feat. ${featured.join(' & ')}` : main;
}

/** A date of any precision as a full date (the first day of a month or year). */
const fullDate = (date: string): string => (date.length === 4 ? `${date}-01-01` : date.length === 7 ? `${date}-01` : date);

const partyRef = (artist: number): string => `Par${artist}`;

function header(x: XmlLines, h: MessageHeader): void {
  x.open('MessageHeader').leaf('MessageThreadId', h.threadId).leaf('MessageId', h.messageId);
  for (const [name, party] of [
    ['MessageSender', SENDER],
    ['MessageRecipient', RECIPIENT],
  ] as const) {
    x.open(name).leaf('PartyId', party.id).open('PartyName').leaf('FullName', party.name).close('PartyName').close(name);
  }
  x.leaf('MessageCreatedDateTime', h.created).close('MessageHeader');
}

function rootAttrs(language: string): Record<string, string> {
  return {
    'xmlns:ern': ERN_NAMESPACE,
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:schemaLocation': `${ERN_NAMESPACE} ${ERN_NAMESPACE}/release-notification.xsd`,
    ReleaseProfileVersionId: 'Audio',
    LanguageAndScriptCode: language,
    AvsVersionId: '3',
  };
}

function displayArtists(x: XmlLines, artists: readonly number[], featuredFrom: number): void {
  artists.forEach((artist, i) => {
    x.open('DisplayArtist', { SequenceNumber: i + 1 })
      .leaf('ArtistPartyReference', partyRef(artist))
      .leaf('DisplayArtistRole', i >= featuredFrom ? 'FeaturedArtist' : 'MainArtist')
      .close('DisplayArtist');
  });
}

function soundRecording(x: XmlLines, song: GenSong, ref: string, shape: CatalogShape): void {
  x.open('SoundRecording').leaf('ResourceReference', ref).leaf('Type', 'MusicalWorkSoundRecording');
  x.open('SoundRecordingEdition').open('ResourceId').leaf('ISRC', song.isrc).close('ResourceId').close('SoundRecordingEdition');
  x.leaf('DisplayTitleText', song.name);
  const version = splitVersion(song);
  x.open('DisplayTitle', DEFAULT).leaf('TitleText', version ? version.title : song.name);
  if (version) x.leaf('SubTitle', version.subTitle);
  x.close('DisplayTitle');
  x.leaf('DisplayArtistName', songCredit(song, shape), DEFAULT);
  displayArtists(x, song.credits, 1);
  x.leaf('Duration', isoDuration(song.durationMs)).leaf('ParentalWarningType', 'NoAdviceAvailable').close('SoundRecording');
}

/**
 * The NewReleaseMessage of one album or compilation: a Party per credited artist (with its ISNI,
 * so artists who share a name stay apart) and one for the label (a release without a label names
 * its main artist, as a self-release does: ERN requires a label), a SoundRecording per track, the
 * front cover, the Release with one ResourceGroup per disc (two discs are groups of
 * `ResourceGroupType="Component"` nested in the release's), a TrackRelease per track, and a
 * worldwide streaming deal from the release date. `title` replaces the release's own (an update).
 */
export function newReleaseMessage(release: GenRelease, shape: CatalogShape, h: MessageHeader, title = release.name): string {
  const tracks = release.tracks;
  const language = release.kind === 'album' && tracks.length > 0 ? tracks[0].song.script.language : 'en';
  const x = new XmlLines().open('ern:NewReleaseMessage', rootAttrs(language));
  header(x, h);

  const artists: number[] = [];
  for (const a of [...release.artists, ...tracks.flatMap((t) => t.song.credits)]) if (!artists.includes(a)) artists.push(a);
  const labelRef = release.label !== null ? `PL${LABELS.indexOf(release.label as (typeof LABELS)[number])}` : partyRef(release.artists[0]);
  x.open('PartyList');
  for (const a of artists) {
    x.open('Party').leaf('PartyReference', partyRef(a)).open('PartyName').leaf('FullName', shape.artistName(a)).close('PartyName');
    x.open('PartyId').leaf('ISNI', syntheticIsni(a)).close('PartyId').close('Party');
  }
  if (release.label !== null)
    x.open('Party').leaf('PartyReference', labelRef).open('PartyName').leaf('FullName', release.label).close('PartyName').close('Party');
  x.close('PartyList');

  const imageRef = `A${tracks.length + 1}`;
  x.open('ResourceList');
  tracks.forEach((t, i) => soundRecording(x, t.song, `A${i + 1}`, shape));
  x.open('Image').leaf('ResourceReference', imageRef).leaf('Type', 'FrontCoverImage');
  x.open('ResourceId').leaf('ProprietaryId', `PACKSHOT:${release.upc}`, { Namespace: SENDER.id }).close('ResourceId');
  x.open('TechnicalDetails').leaf('TechnicalResourceDetailsReference', `T${tracks.length + 1}`);
  x.open('File').leaf('URI', release.artworkUrl).close('File').close('TechnicalDetails').close('Image');
  x.close('ResourceList');

  const genre = release.genres?.[0] ?? shape.artistGenre(release.artists[0]);
  x.open('ReleaseList').open('Release').leaf('ReleaseReference', 'R0');
  x.leaf('ReleaseType', release.kind === 'album' && tracks.length === 1 ? 'Single' : 'Album');
  x.open('ReleaseId').leaf('ICPN', release.upc).close('ReleaseId');
  x.leaf('DisplayTitleText', title).open('DisplayTitle', DEFAULT).leaf('TitleText', title).close('DisplayTitle');
  x.leaf('DisplayArtistName', release.artists.map((a) => shape.artistName(a)).join(' & '), DEFAULT);
  displayArtists(x, release.artists, release.artists.length);
  x.leaf('ReleaseLabelReference', labelRef, WORLDWIDE);
  x.leaf('Duration', isoDuration(tracks.reduce((sum, t) => sum + t.song.durationMs, 0)));
  x.open('Genre', WORLDWIDE).leaf('GenreText', genre).close('Genre');
  x.leaf('OriginalReleaseDate', release.releaseDate, WORLDWIDE);
  x.leaf('ParentalWarningType', 'NoAdviceAvailable');
  x.leaf('IsMultiArtistCompilation', String(release.kind === 'compilation'));
  const discs = [...new Set(tracks.map((t) => t.disc))];
  const items = (disc: number) => {
    tracks.forEach((t, i) => {
      if (t.disc === disc)
        x.open('ResourceGroupContentItem')
          .leaf('SequenceNumber', t.track)
          .leaf('ReleaseResourceReference', `A${i + 1}`)
          .close('ResourceGroupContentItem');
    });
  };
  x.open('ResourceGroup');
  if (discs.length === 1) {
    x.leaf('SequenceNumber', discs[0]);
    items(discs[0]);
  } else {
    for (const disc of discs) {
      x.open('ResourceGroup', { ResourceGroupType: 'Component' }).leaf('SequenceNumber', disc);
      items(disc);
      x.close('ResourceGroup');
    }
  }
  x.leaf('LinkedReleaseResourceReference', imageRef).close('ResourceGroup').close('Release');
  tracks.forEach((t, i) => {
    x.open('TrackRelease').leaf('ReleaseReference', `R${i + 1}`);
    x.open('ReleaseId')
      .leaf('ProprietaryId', `${release.upc}_${t.song.isrc}_R${i + 1}`, { Namespace: SENDER.id })
      .close('ReleaseId');
    x.leaf('ReleaseResourceReference', `A${i + 1}`).leaf('ReleaseLabelReference', labelRef, WORLDWIDE);
    x.open('Genre', WORLDWIDE)
      .leaf('GenreText', t.song.genres?.[0] ?? genre)
      .close('Genre')
      .close('TrackRelease');
  });
  x.close('ReleaseList');

  x.open('DealList').open('ReleaseDeal');
  for (let r = 0; r <= tracks.length; r++) x.leaf('DealReleaseReference', `R${r}`);
  x.open('Deal').open('DealTerms').leaf('TerritoryCode', 'Worldwide');
  x.open('ValidityPeriod').leaf('StartDate', fullDate(release.releaseDate)).close('ValidityPeriod');
  x.leaf('CommercialModelType', 'SubscriptionModel').leaf('CommercialModelType', 'AdvertisementSupportedModel').leaf('UseType', 'Stream');
  x.close('DealTerms').close('Deal').close('ReleaseDeal').close('DealList');
  return x.close('ern:NewReleaseMessage').toString();
}

/** A PurgeReleaseMessage taking the release down: its ICPN and title. */
export function purgeReleaseMessage(release: GenRelease, h: MessageHeader): string {
  const x = new XmlLines().open('ern:PurgeReleaseMessage', { 'xmlns:ern': ERN_NAMESPACE, AvsVersionId: '3', LanguageAndScriptCode: 'en' });
  header(x, h);
  x.open('PurgedRelease').open('ReleaseId').leaf('ICPN', release.upc).close('ReleaseId');
  x.open('Title').leaf('TitleText', release.name).close('Title').close('PurgedRelease');
  return x.close('ern:PurgeReleaseMessage').toString();
}
