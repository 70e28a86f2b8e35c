import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDdex } from '../src/import/ddex/read-ddex.js';
import { durationMs } from '../src/import/ddex/values.js';
import { ImportError } from '../src/import/import-error.js';
import { runStreamedImport } from '../src/import/stage/run-import.js';
import { unitDigest } from '../src/import/stage/source-unit.js';
import type { CatalogSink, ImportReport, SourceUnit, StagedAlbum, StagedArtist, StagedSong } from '../src/import/stage/staged.js';
import { tempDir } from './helpers/raw-fixture.js';
import { serveRaw, type TestServer } from './helpers/server.js';
import { missingShared } from './helpers/requirements.js';

/** DDEX's public sample messages (../shared/fixtures/SOURCES.md), never copied into this tree. */
const SHARED = join(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'ddex');
const NO_SHARED = missingShared(SHARED);
const HAVE_SHARED = NO_SHARED === null;
const SHARED_NOTE = HAVE_SHARED ? '' : ` (skipped: ${NO_SHARED})`;
const shared = (name: string): string => join(SHARED, name);
/** Our own hand-written minimal messages, one per mapping rule. */
const OWN = join(import.meta.dirname, 'fixtures', 'ddex');
const own = (name: string): string => join(OWN, name);

type Call =
  | { kind: 'release'; unit: SourceUnit; album: StagedAlbum }
  | { kind: 'takedown'; unit: SourceUnit; albumId: string }
  | { kind: 'song'; unit: SourceUnit; song: StagedSong }
  | { kind: 'artist'; unit: SourceUnit; artist: StagedArtist };

/** An in-memory sink and report that record every call. */
class Recorder implements CatalogSink, ImportReport {
  readonly calls: Call[] = [];
  readonly skips: { where: string; item: string; reason: string }[] = [];
  readonly warnings: { where: string; message: string }[] = [];
  readonly units: { kind: string; bytes: number }[] = [];
  release(unit: SourceUnit, album: StagedAlbum): void {
    this.calls.push({ kind: 'release', unit, album });
  }
  takedown(unit: SourceUnit, albumId: string): void {
    this.calls.push({ kind: 'takedown', unit, albumId });
  }
  song(unit: SourceUnit, song: StagedSong): void {
    this.calls.push({ kind: 'song', unit, song });
  }
  artist(unit: SourceUnit, artist: StagedArtist): void {
    this.calls.push({ kind: 'artist', unit, artist });
  }
  skip(where: string, item: string, reason: string): void {
    this.skips.push({ where, item, reason });
  }
  warn(where: string, message: string): void {
    this.warnings.push({ where, message });
  }
  unit(kind: string, bytes: number): void {
    this.units.push({ kind, bytes });
  }
  get releases(): StagedAlbum[] {
    return this.calls.flatMap((c) => (c.kind === 'release' ? [c.album] : []));
  }
  get takedowns(): string[] {
    return this.calls.flatMap((c) => (c.kind === 'takedown' ? [c.albumId] : []));
  }
  /** The only release staged. */
  get album(): StagedAlbum {
    expect(this.calls.map((c) => c.kind)).toEqual(['release']);
    return this.releases[0];
  }
}

async function read(inputs: string[], options: { artworkBaseUrl?: string } = {}): Promise<Recorder> {
  const r = new Recorder();
  await readDdex(inputs, r, r, options);
  return r;
}

/** The ImportError `promise` rejects with. */
async function importError(promise: Promise<unknown>): Promise<ImportError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportError);
  return err as ImportError;
}

/** The name-derived artist id: `a-` + 16 hex digits of SHA-256 of the NFC name. */
const nameId = (name: string): string => `a-${createHash('sha256').update(name.normalize('NFC')).digest('hex').slice(0, 16)}`;
/** [disc, track, ISRC, name, ms] per track. */
const trackList = (album: StagedAlbum) => album.tracks.map((t) => [t.discNumber, t.trackNumber, t.song.id, t.song.name, t.song.durationMs]);
const artistNames = (artists: readonly StagedArtist[]) => artists.map((a) => a.name);

/** A variant of a message written to a temporary file. */
function variant(name: string, text: string): string {
  const dir = tempDir('omm-ddex-');
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const ownText = (name: string): string => readFileSync(own(name), 'utf8');

const SAEKO = { id: nameId('Saeko Shu'), name: 'Saeko Shu' };
/** The 21 tracks of "Yume no Hajmari" (ERN 4.1.1 and 4.3 samples): ISRC, title, duration. */
const YUME: [string, string, number][] = [
  ['JPTO09404900', 'Yume no Lullaby', 148000],
  ['JPTO09404910', 'Yume no Hajimari - Kaze no Okuri Mono (Introduction)', 102000],
  ['JPTO09404920', '-Haru- Soushunfu', 72000],
  ['JPTO09404930', 'Dokoka de Haru ga', 82000],
  ['JPTO09404940', 'Haru ga Kita', 92000],
  ['JPTO09404950', 'Haru no Ogawa (Monbushou Shouka)', 74000],
  ['JPTO09404960', '-Natsu- Umi (Monbushou Shouka)', 69000],
  ['JPTO09404970', 'Ware wa Umi no Ko', 72000],
  ['JPTO09404980', 'Natsu no Omoide (Instrumental)', 74000],
  ['JPTO09404990', 'Natsu wa Konu', 90000],
  ['JPTO09405000', '-Aki- Chiisai Aki Mitsuketa', 65000],
  ['JPTO09405010', 'Sato no Aki', 58000],
  ['JPTO09405020', 'Ryoshuu', 81000],
  ['JPTO09405030', 'Aka Tonbo', 105000],
  ['JPTO09405040', '-Fuyu- Fuyu no Yoru (Monbushou Shouka)', 86000],
  ['JPTO09405050', 'Pechka', 65000],
  ['JPTO09405060', 'Yuki no Furu Machi wo', 71000],
  ['JPTO09405070', 'Komoriuta', 132000],
  ['JPTO09332840', 'Aerobics Mama', 204000],
  ['JPTO09405080', "Mother's Song -Kodomotachi e-", 222000],
  ['JPTO09332830', 'Kitto Shiawase (NHK Minna no Uta)', 226000],
];

describe.skipIf(!HAVE_SHARED)(`the public ERN samples${SHARED_NOTE}`, () => {
  it('ERN 4.3 "1 Audio": album 0094631432057, 21 tracks in order, Saeko Shu, label and date from the deal', async () => {
    const file = shared('ern43_album_21-tracks_ddex-sample-Audio.xml');
    const r = await read([file]);
    const album = r.album;
    expect(album).toMatchObject({
      id: '0094631432057', // the 14-digit ICPN 00094631432057 as GTIN-13
      name: 'Yume no Hajmari',
      upc: '0094631432057',
      label: 'EMI MUSIC JAPAN INC.', // ReleaseLabelReference PEMI → Party
      releaseDate: '2004-04-01', // no release date: the deal's StartDate
      genres: ['J-Pop'],
      artists: [SAEKO],
      artistName: 'Saeko Shu', // the IsDefault ja-Latn DisplayArtistName, not しゅうさえこ
    });
    expect(album.artworkUrl).toBeUndefined(); // a relative file name and no base URL
    expect(album.grid).toBeUndefined();
    expect(trackList(album)).toEqual(YUME.map(([isrc, name, ms], i) => [1, i + 1, isrc, name, ms]));
    for (const { song } of album.tracks) {
      expect(song).toMatchObject({ isrc: song.id, artists: [SAEKO], artistName: 'Saeko Shu', pLine: '(P) 1994 EMI Music Japan Inc.' });
      expect(song.explicit).toBeUndefined(); // NoAdviceAvailable
      expect(song.id).toMatch(/^JPTO/);
    }
    const { unit } = r.calls[0];
    expect(unit).toEqual({ where: file, created: '2014-09-24T13:57:25.0000000Z', digest: unitDigest(readFileSync(file)) });
    expect(r.units).toEqual([{ kind: 'message', bytes: 75352 }]);
    expect(r.skips).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('ERN 4.3: the linked FrontCoverImage resolves against artworkBaseUrl', async () => {
    const r = await read([shared('ern43_album_21-tracks_ddex-sample-Audio.xml')], { artworkBaseUrl: 'https://cdn.example.com/packshots' });
    expect(r.album.artworkUrl).toBe('https://cdn.example.com/packshots/0094631432057.jpg');
  });

  it('ERN 4.1.1 "1 Audio" (ISRC in ResourceId, PLine on the recording) gives the same album as 4.3', async () => {
    const a = (await read([shared('ern411_album_21-tracks_ddex-sample-Audio.xml')])).album;
    const b = (await read([shared('ern43_album_21-tracks_ddex-sample-Audio.xml')])).album;
    expect(a).toEqual(b);
    expect(a.tracks).toHaveLength(21);
  });

  it('ERN 3.8.2 CRT AudioAlbumMusicOnly: a GRid-identified album of 6 tracks from the nested ResourceGroup', async () => {
    const r = await read([shared('ern382_album_ddex-crt14-AudioAlbumMusicOnly.xml')], { artworkBaseUrl: 'https://cdn.example.com/art/' });
    const album = r.album;
    const monkeyClaw = { id: nameId('Monkey Claw'), name: 'Monkey Claw' };
    expect(album).toMatchObject({
      id: 'A1UCASE0000000401X',
      grid: 'A1UCASE0000000401X',
      name: 'A Monkey Claw in a Velvet Glove',
      label: 'Iron Crown Music',
      releaseDate: '2010-01-01', // ReleaseDetailsByTerritory/ReleaseDate before GlobalOriginalReleaseDate 2010-10-01
      genres: ['Metal', 'Progressive Metal'],
      artists: [monkeyClaw],
      artistName: 'Monkey Claw',
      pLine: '(P) 2010 Iron Crown Music',
      cLine: '(C) 2010 Iron Crown Music',
      artworkUrl: 'https://cdn.example.com/art/A1UCASE0000000401X.jpeg',
    });
    expect(album.upc).toBeUndefined();
    expect(trackList(album)).toEqual([
      [1, 1, 'CASE00000001', 'Can you feel ...the Monkey Claw!', 811000],
      [1, 2, 'CASE00000002', 'Red top mountain, blown sky high', 366000],
      [1, 3, 'CASE00000003', 'Seige of Antioch', 1269000],
      [1, 4, 'CASE00000004', 'Warhammer', 165000],
      [1, 5, 'CASE00000005', 'Iron Horse', 294000],
      [1, 6, 'CASE00000006', 'Yes... I can feel the Monkey Claw!', 741000],
    ]);
    expect(album.tracks[0].song).toMatchObject({
      artists: [monkeyClaw],
      releaseDate: '2011',
      explicit: false,
      genres: ['Metal', 'Progressive Metal'],
      pLine: '(P) 2010 Iron Crown Music',
    });
    expect(r.calls[0].unit.created).toBe('2012-12-11T15:50:00.0000000Z');
  });

  it('ERN 3.8.2 CRT AudioSingle: the Single (not its TrackRelease), two display artists, one track', async () => {
    const album = (await read([shared('ern382_single_ddex-crt14-AudioSingle.xml')])).album;
    expect(album).toMatchObject({
      id: 'A1UCASE0000000001X',
      name: 'Can you feel ...the Monkey Claw!',
      artistName: 'Monkey Claw featung. Ape Hand',
      releaseDate: '2010-01-01',
    });
    expect(artistNames(album.artists)).toEqual(['Monkey Claw', 'Ape Hand']);
    expect(trackList(album)).toEqual([[1, 1, 'CASE00000001', 'Can you feel ...the Monkey Claw!', 811000]]);
    const song = album.tracks[0].song;
    expect(artistNames(song.artists)).toEqual(['Monkey Claw']);
    expect(song.artistName).toBeUndefined(); // the release's credit string names Ape Hand, who is not on the track
  });

  it('ERN 3.8.2 with a UTF-8 BOM and a DealList: imports; the ICPN fails the GS1 check, so it is the id but not a UPC', async () => {
    const file = shared('ern382_album_utf8-bom_deallist.xml');
    const bytes = readFileSync(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const r = await read([file], { artworkBaseUrl: 'https://cdn.example.com/art/' });
    const album = r.album;
    expect(album).toMatchObject({
      id: '1199119911991',
      name: 'Album Title',
      label: 'Label 1',
      releaseDate: '2013-01-01',
      artistName: 'Artist 1',
      genres: ['Classical'],
      pLine: '2013 Label 1',
    });
    expect(album.upc).toBeUndefined();
    expect(r.warnings).toEqual([expect.objectContaining({ message: expect.stringMatching(/ICPN "1199119911991" is not a valid UPC-A or EAN-13/) })]);
    expect(album.artworkUrl).toBe('https://cdn.example.com/art/assets/1199119911991_FrontCoverImage.jpg'); // FilePath/FileName
    const ms = [487000, 628000, 582000, 510000, 627000, 520000, 679000, 566000, 662000];
    expect(trackList(album)).toEqual(ms.map((d, i) => [1, i + 1, `BE000000000${i + 1}`, `Track Title ${i + 1}`, d])); // PT0H8M7S …
    expect(r.calls[0].unit).toEqual({ where: file, created: '2018-01-23T14:48:00.1234567Z', digest: unitDigest(bytes) });
    expect(r.units).toEqual([{ kind: 'message', bytes: bytes.length }]);
  });

  it('reads a directory of them recursively, in sorted order, one unit per file', async () => {
    const r = await read([SHARED]);
    expect(r.calls.map((c) => c.unit.where)).toEqual(
      [
        'ern382_album_ddex-crt14-AudioAlbumMusicOnly.xml',
        'ern382_album_utf8-bom_deallist.xml',
        'ern382_single_ddex-crt14-AudioSingle.xml',
        'ern411_album_21-tracks_ddex-sample-Audio.xml',
        'ern43_album_21-tracks_ddex-sample-Audio.xml',
      ].map((f) => join(SHARED, f)),
    );
    expect(r.units).toHaveLength(5);
  });
});

describe('hand-written ERN 3.8 messages', () => {
  it('multi-disc: nested ResourceGroups are discs, SequenceNumbers are track numbers', async () => {
    const album = (await read([own('ern382-multidisc.xml')])).album;
    expect(trackList(album)).toEqual([
      [1, 1, 'USAB12100001', 'Opening', 195000],
      [1, 2, 'USAB12100002', 'Middle (Live at Home)', 263583], // ReferenceTitle + SubTitle; PT4M23.583S
      [2, 1, 'USAB12100003', 'Closing', 60000], // PT1M
    ]);
  });

  it('album fields: 12-digit UPC kept as given (id as GTIN-13), GRid without hyphens, the Worldwide block over GB', async () => {
    const album = (await read([own('ern382-multidisc.xml')])).album;
    expect(album).toMatchObject({
      id: '0036000291452',
      upc: '036000291452',
      grid: 'A12425GABC1234002M',
      name: 'Two Sides',
      label: 'Two Sides Records', // not the GB block's UK Licensee
      artistName: 'Alpha & Beta',
      releaseDate: '2021-06', // YYYY-MM kept; not the GB block's 2021-05-05
      genres: ['Pop', 'Synth-pop'],
      pLine: '2021 Two Sides Records', // the year put in front
      cLine: '(C) 2021 Two Sides Records', // already has it
      artworkUrl: 'https://img.example.com/covers/two-sides.jpg', // an absolute URL needs no base
    });
    expect(album.artists).toEqual([
      { id: 'isni-0000000121032683', name: 'Alpha' },
      { id: nameId('Beta'), name: 'Beta' },
    ]);
  });

  it('multi-artist: display artists in SequenceNumber order, the DisplayArtistName join string, ISNI ids, explicit', async () => {
    const [opening, middle, closing] = (await read([own('ern382-multidisc.xml')])).album.tracks.map((t) => t.song);
    expect(opening.artists).toEqual([
      { id: 'isni-0000000121032683', name: 'Alpha' }, // "0000 0001 2103 2683" normalised
      { id: nameId('Beta'), name: 'Beta' },
      { id: nameId('Gamma'), name: 'Gamma' },
    ]);
    expect(opening).toMatchObject({ artistName: 'Alpha feat. Beta & Gamma', explicit: true, pLine: '2021 Two Sides Records', genres: ['Pop'] });
    // Only the Worldwide block counts: Alpha, not the GB block's "Alpha UK"; NotExplicit, not Explicit.
    expect(middle).toMatchObject({
      artists: [{ id: 'isni-0000000121032683', name: 'Alpha' }],
      explicit: false,
      releaseDate: '2020-11-20',
      pLine: '(P) 2021 Two Sides Records',
    });
    expect(middle.artistName).toBeUndefined();
    // No display artist of its own: the album's credit.
    expect(closing).toMatchObject({
      artists: [
        { id: 'isni-0000000121032683', name: 'Alpha' },
        { id: nameId('Beta'), name: 'Beta' },
      ],
      artistName: 'Alpha & Beta',
    });
    expect(closing.explicit).toBeUndefined();
  });

  it('a recording without a valid ISRC is skipped with its place; the album and the other tracks stay', async () => {
    const file = own('ern382-missing-isrc.xml');
    const r = await read([file]);
    expect(r.skips).toEqual([
      { where: `${file}:19: NewReleaseMessage/ResourceList/SoundRecording[2]`, item: 'track No Code', reason: 'no ISRC' },
      { where: `${file}:25: NewReleaseMessage/ResourceList/SoundRecording[3]`, item: 'track Bad Code (ISRC "NOT-AN-ISRC" is not valid)', reason: 'no ISRC' },
    ]);
    const album = r.album;
    expect(album).toMatchObject({ id: '5012345678900', upc: '5012345678900', name: 'Gaps', releaseDate: '2020' });
    expect(trackList(album)).toEqual([[1, 1, 'GBXYZ2000001', 'Kept', 120000]]); // one level of groups: disc 1
    expect(r.calls[0].unit.created).toBe('2020-01-02T03:04:05.0000000Z'); // namespace ern/38; no offset read as UTC
  });

  it('the main release after its track releases, without IsMainRelease: the Single; tracks in ReleaseResourceReferenceList order; pid- id; date from the deals', async () => {
    const r = await read([own('ern382-main-last.xml')]);
    const album = r.album;
    expect(album.id).toBe(`pid-CAT_0042_B~${createHash('sha256').update('CAT 0042/B').digest('hex').slice(0, 12)}`);
    expect(album).toMatchObject({ name: 'Double A', artistName: 'Duo', releaseDate: '2019-03-01' }); // the earlier StartDate(Time)
    expect(trackList(album)).toEqual([
      [1, 1, 'FRZ031900002', 'A-Side', 180000],
      [1, 2, 'FRZ031900001', 'B-Side', 150000],
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('PurgeReleaseMessage: a takedown of the purged release, by the same id its release had', async () => {
    const r = await read([own('ern382-multidisc.xml'), own('ern382-purge.xml')]);
    expect(r.calls.map((c) => [c.kind, c.kind === 'release' ? c.album.id : c.kind === 'takedown' ? c.albumId : '', c.unit.created])).toEqual([
      ['release', '0036000291452', '2021-03-04T10:00:00.0000000Z'],
      ['takedown', '0036000291452', '2022-01-01T00:00:00.0000000Z'],
    ]);
  });

  it('an update whose deals are all TakeDown is a takedown, not a release', async () => {
    const r = await read([own('ern382-takedown.xml')]);
    expect(r.calls.map((c) => c.kind)).toEqual(['takedown']);
    expect(r.takedowns).toEqual(['0036000291452']);
    expect(r.calls[0].unit.created).toBe('2021-09-01T12:00:00.0000000Z');
  });

  it('one live deal among TakeDowns keeps the release', async () => {
    const live = ownText('ern382-takedown.xml').replace(
      '<TakeDown>true</TakeDown>\n          <TerritoryCode>US</TerritoryCode>',
      '<Usage><UseType>OnDemandStream</UseType></Usage>\n          <TerritoryCode>US</TerritoryCode>',
    );
    expect(live).not.toBe(ownText('ern382-takedown.xml'));
    const r = await read([variant('live.xml', live)]);
    expect(r.album).toMatchObject({ id: '0036000291452', releaseDate: '2021-09-01' }); // the live deal's start
  });
});

describe('hand-written ERN 4.3 messages', () => {
  it('multi-disc: the release ResourceGroup holds one group per disc', async () => {
    const album = (await read([own('ern43-multidisc.xml')])).album;
    expect(trackList(album)).toEqual([
      [1, 1, 'DEAB12100011', 'Opening (Radio Edit)', 195000], // DisplayTitleText + the default DisplayTitle's SubTitle
      [1, 2, 'DEAB12100012', 'Second (Acoustic)', 125000], // the subtitle is already in the title; PT0H2M5S
      [2, 1, 'DEAB12100013', 'Third', 58000], // PT58S
    ]);
  });

  it('album fields: 14-digit ICPN, label party, Worldwide genre, relative cover resolved against the base', async () => {
    const album = (await read([own('ern43-multidisc.xml')], { artworkBaseUrl: 'https://cdn.example.com/art/' })).album;
    expect(album).toMatchObject({
      id: '4006381333931',
      upc: '4006381333931',
      name: 'Second Album',
      label: 'Second Label GmbH',
      releaseDate: '2021-02-03',
      genres: ['Electronic', 'House'], // not the DE Genre
      artistName: 'Alpha & Beta',
      pLine: '(P) 2021 Second Label GmbH',
      cLine: '2020 Second Label GmbH',
      artworkUrl: 'https://cdn.example.com/art/covers/second%20album.jpg',
    });
    expect(album.artists).toEqual([
      { id: 'isni-000000012103268X', name: 'Alpha' }, // the PartyName in the message's script, not アルファ
      { id: nameId('Beta'), name: 'Beta' },
    ]);
  });

  it('multi-artist: ArtistPartyReferences in SequenceNumber order, the default-script join string, parental warnings', async () => {
    const r = await read([own('ern43-multidisc.xml')]);
    const [opening, second, third] = r.album.tracks.map((t) => t.song);
    expect(artistNames(opening.artists)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(opening.artists[0].id).toBe('isni-000000012103268X');
    expect(opening).toMatchObject({ artistName: 'Alpha feat. Beta & Gamma', explicit: true, pLine: '2021 Second Label GmbH' });
    expect(second).toMatchObject({ explicit: false, releaseDate: '2019-07-01' }); // ExplicitContentEdited; FirstPublicationDate
    expect(third).toMatchObject({ artists: [{ id: nameId('Beta'), name: 'Beta' }], artistName: 'Beta' });
    expect(third.explicit).toBeUndefined(); // Unknown
    expect(r.calls[0].unit.created).toBe('2021-02-01T07:30:00.5000000Z');
  });

  it('the same artist name is the same artist id across messages and versions', async () => {
    const a = (await read([own('ern382-multidisc.xml')])).album;
    const b = (await read([own('ern43-multidisc.xml')])).album;
    expect(a.artists[1]).toEqual(b.artists[1]); // Beta, without an ISNI in both
  });

  it('an update whose deals all ended on or before its creation (EndDate, EndDateTime) is a takedown', async () => {
    const r = await read([own('ern43-deals-ended.xml')]);
    expect(r.calls.map((c) => c.kind)).toEqual(['takedown']);
    expect(r.takedowns).toEqual(['4006381333931']);
  });

  it('a deal that ends after the creation keeps the release', async () => {
    const r = await read([variant('later.xml', ownText('ern43-deals-ended.xml').replace('<EndDate>2021-12-31</EndDate>', '<EndDate>2022-06-30</EndDate>'))]);
    expect(r.album).toMatchObject({ id: '4006381333931', releaseDate: '2021-02-03' });
  });

  it('a DealList of 700 deals is summarised: all ended is a takedown, one still open keeps the release', async () => {
    const ended =
      '<Deal><DealTerms><TerritoryCode>Worldwide</TerritoryCode><ValidityPeriod><StartDate>2021-02-03</StartDate><EndDate>2021-06-30</EndDate></ValidityPeriod><UseType>Stream</UseType></DealTerms></Deal>\n';
    const open =
      '<Deal><DealTerms><TerritoryCode>FR</TerritoryCode><ValidityPeriod><StartDate>2021-01-01</StartDate></ValidityPeriod><UseType>Stream</UseType></DealTerms></Deal>\n';
    const base = ownText('ern43-deals-ended.xml');
    const at = base.indexOf('<Deal>');
    const many = (extra: string) => base.slice(0, at) + ended.repeat(700) + extra + base.slice(at);
    expect((await read([variant('gone.xml', many(''))])).takedowns).toEqual(['4006381333931']);
    expect((await read([variant('kept.xml', many(open))])).album.releaseDate).toBe('2021-01-01');
  });

  it('PurgeReleaseMessage by GRid', async () => {
    const r = await read([own('ern43-purge.xml')]);
    expect(r.calls.map((c) => c.kind)).toEqual(['takedown']);
    expect(r.takedowns).toEqual(['A10302B0001234567Q']);
  });

  it('a release without ICPN, GRid or ProprietaryId is skipped and stages nothing', async () => {
    const r = await read([variant('no-id.xml', ownText('ern43-multidisc.xml').replace('<ReleaseId><ICPN>04006381333931</ICPN></ReleaseId>', ''))]);
    expect(r.calls).toEqual([]);
    expect(r.skips).toEqual([{ where: expect.stringMatching(/no-id\.xml$/), item: 'release Second Album', reason: 'no ICPN, GRid or ProprietaryId' }]);
  });

  it('a multi-byte character split across read chunks survives', async () => {
    const text = ownText('ern43-multidisc.xml');
    const at = text.indexOf('<DisplayTitleText>Second Album');
    const before = Buffer.byteLength(text.slice(0, at));
    // Pad with a comment so that "ア" (3 bytes) starts one byte before the 64 KiB chunk boundary.
    const padding = `<!--${'x'.repeat(65536 - 1 - before - '<DisplayTitleText>'.length - 7)}-->`;
    const padded = `${text.slice(0, at)}${padding}<DisplayTitleText>アSecond Album${text.slice(at + '<DisplayTitleText>Second Album'.length)}`;
    expect(Buffer.from(padded).subarray(65535, 65538).toString()).toBe('ア');
    expect((await read([variant('split.xml', padded)])).album.name).toBe('アSecond Album');
  });
});

describe('xs:duration', () => {
  it.each([
    ['PT3M15S', 195000],
    ['PT0H8M7S', 487000],
    ['PT58S', 58000],
    ['PT1M', 60000],
    ['PT4M23.583S', 263583],
    ['PT3M08S', 188000],
    ['P1DT2H', 93600000],
    ['P0Y0M0DT1H', 3600000],
    ['PT0S', 0],
  ])('%s is %i ms', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  it.each(['PT3X', 'PT', 'P', '3M15S', 'PT-3S', 'P1M', 'P1Y', 'PT1.5M', 'pt3m'])('%s is not read', (text) => {
    expect(durationMs(text)).toBeNull();
  });
});

describe('inputs', () => {
  it('walks directories recursively for *.xml in sorted order, names files by the directory as given', async () => {
    const dir = tempDir('omm-ddex-dir-');
    mkdirSync(join(dir, 'b', 'deeper'), { recursive: true });
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'b', 'deeper', '2.XML'), ownText('ern43-purge.xml'));
    writeFileSync(join(dir, 'b', '1.xml'), ownText('ern382-purge.xml'));
    writeFileSync(join(dir, 'a', 'notes.txt'), 'not a message');
    writeFileSync(join(dir, 'c.xml'), ownText('ern43-purge.xml'));
    const r = await read([dir, own('ern382-purge.xml')]);
    expect(r.calls.map((c) => c.unit.where)).toEqual([join(dir, 'b', '1.xml'), join(dir, 'b', 'deeper', '2.XML'), join(dir, 'c.xml'), own('ern382-purge.xml')]);
  });

  it('a missing input is E_IMPORT_IO before anything is read', async () => {
    const r = new Recorder();
    const err = await importError(readDdex([own('ern382-purge.xml'), join(OWN, 'nope.xml')], r, r));
    expect(err.code).toBe('E_IMPORT_IO');
    expect(err.place.file).toBe(join(OWN, 'nope.xml'));
    expect(r.calls).toEqual([]);
  });
});

describe('malformed and foreign input', () => {
  it('truncated XML: E_IMPORT_SYNTAX with line, column and the element path open at the end', async () => {
    const text = ownText('ern43-multidisc.xml');
    const cut = text.slice(0, text.indexOf('<Duration>PT0H2M5S'));
    const file = variant('truncated.xml', cut);
    const err = await importError(read([file]));
    expect(err.code).toBe('E_IMPORT_SYNTAX');
    expect(err.place).toMatchObject({ file, line: cut.split('\n').length, path: 'NewReleaseMessage/ResourceList/SoundRecording[2]' });
    expect(err.place.column).toBeGreaterThan(0);
    expect(err.message).toContain(file);
  });

  it('a mismatched close tag: E_IMPORT_SYNTAX at its line', async () => {
    const text = ownText('ern382-multidisc.xml').replace('<Duration>PT1M</Duration>', '<Duration>PT1M</Duratio>');
    const err = await importError(read([variant('mismatch.xml', text)]));
    expect(err.code).toBe('E_IMPORT_SYNTAX');
    const lines = text.split('\n');
    expect(err.place.line).toBe(lines.findIndex((l) => l.includes('</Duratio>')) + 1);
    expect(err.place.path).toBe('NewReleaseMessage/ResourceList/SoundRecording[3]/Duration');
  });

  it.each([
    ['another namespace', 'http://example.com/not-ddex/43', /namespace http:\/\/example\.com\/not-ddex\/43/],
    ['ERN 3.4', 'http://ddex.net/xml/ern/34', /ERN 3\.4 \(http:\/\/ddex\.net\/xml\/ern\/34\)/],
    ['ERN 4.4 (not yet known)', 'http://ddex.net/xml/ern/44', /ERN 4\.4/],
  ])('%s: E_IMPORT_FORMAT naming the file and what it found', async (_what, uri, pattern) => {
    const file = variant('foreign.xml', ownText('ern43-purge.xml').replace('http://ddex.net/xml/ern/43', uri));
    const err = await importError(read([file]));
    expect(err.code).toBe('E_IMPORT_FORMAT');
    expect(err.place.file).toBe(file);
    expect(err.message).toMatch(pattern);
    expect(err.message).toContain(file);
  });

  it('a CatalogListMessage: E_IMPORT_FORMAT naming the message type', async () => {
    const file = variant(
      'catalog.xml',
      '<?xml version="1.0"?>\n<ern:CatalogListMessage xmlns:ern="http://ddex.net/xml/ern/382" MessageSchemaVersionId="ern/382"><MessageHeader/></ern:CatalogListMessage>\n',
    );
    const err = await importError(read([file]));
    expect(err.code).toBe('E_IMPORT_FORMAT');
    expect(err.message).toMatch(/CatalogListMessage \(ERN 3\.8\.2\) is not a message this reader takes/);
    expect(err.message).toContain(file);
  });

  it('an encoding other than UTF-8: E_IMPORT_FORMAT', async () => {
    const text = ownText('ern43-purge.xml').replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const err = await importError(read([variant('latin1.xml', text)]));
    expect(err.code).toBe('E_IMPORT_FORMAT');
    expect(err.message).toMatch(/encoding ISO-8859-1 is not supported/);
  });

  it('not XML at all: E_IMPORT_FORMAT', async () => {
    const err = await importError(read([variant('data.xml', '{"release": "not xml"}\n')]));
    expect(err.code).toBe('E_IMPORT_FORMAT');
    expect(err.message).toMatch(/not an XML document/);
  });

  it('a bad duration (PT3X): E_IMPORT_VALUE with file, line, column and path', async () => {
    const text = ownText('ern43-multidisc.xml').replace('<Duration>PT0H2M5S</Duration>', '<Duration>PT3X</Duration>');
    const file = variant('duration.xml', text);
    const err = await importError(read([file]));
    expect(err.code).toBe('E_IMPORT_VALUE');
    const line = text.split('\n').findIndex((l) => l.includes('PT3X'));
    expect(err.place).toEqual({
      file,
      line: line + 1,
      column: text.split('\n')[line].indexOf('PT3X') + 1,
      path: 'NewReleaseMessage/ResourceList/SoundRecording[2]/Duration',
    });
    expect(err.message).toContain('"PT3X" is not a duration');
  });

  it('a missing MessageCreatedDateTime: E_IMPORT_VALUE', async () => {
    const text = ownText('ern43-purge.xml').replace(/<MessageCreatedDateTime>.*<\/MessageCreatedDateTime>/, '');
    const err = await importError(read([variant('no-created.xml', text)]));
    expect(err.code).toBe('E_IMPORT_VALUE');
    expect(err.place.path).toBe('PurgeReleaseMessage/MessageHeader');
    expect(err.message).toMatch(/no MessageCreatedDateTime/);
  });

  it('an unreadable MessageCreatedDateTime: E_IMPORT_VALUE at it', async () => {
    const text = ownText('ern382-purge.xml').replace('2022-01-01T00:00:00Z', 'New Year 2022');
    const err = await importError(read([variant('bad-created.xml', text)]));
    expect(err.code).toBe('E_IMPORT_VALUE');
    expect(err.place.path).toBe('PurgeReleaseMessage/MessageHeader/MessageCreatedDateTime');
  });

  it('an impossible release date: E_IMPORT_VALUE', async () => {
    const text = ownText('ern382-multidisc.xml').replace('<ReleaseDate>2021-06</ReleaseDate>', '<ReleaseDate>2021-13</ReleaseDate>');
    const err = await importError(read([variant('date.xml', text)]));
    expect(err.code).toBe('E_IMPORT_VALUE');
    expect(err.place.path).toBe('NewReleaseMessage/ReleaseList/Release/ReleaseDetailsByTerritory[2]/ReleaseDate');
  });
});

describe('end to end: import, compile, serve', () => {
  const ISRC_43 = 'JPTO09404910';
  let server: TestServer;
  beforeAll(async () => {
    const raw = tempDir('omm-ddex-raw-');
    const inputs = [own('ern382-multidisc.xml'), ...(HAVE_SHARED ? [shared('ern43_album_21-tracks_ddex-sample-Audio.xml')] : [])];
    const summary = await runStreamedImport('DDEX', { out: raw, progress: null }, (sink, report) => readDdex(inputs, sink, report));
    expect(summary).toMatchObject({ releases: inputs.length, skipped: 0, units: { message: inputs.length } });
    server = await serveRaw(raw);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ERN 3.8 song by ISRC in /v1: title, artists in order, album with its UPC, track and duration', async () => {
    const r = await server.get('/v1/songs/lookup?isrc=usab12100001&include=albums,artists');
    expect(r.status).toBe(200);
    const [song] = r.body.data;
    expect(song.attributes).toMatchObject({
      name: 'Opening',
      artistName: 'Alpha feat. Beta & Gamma',
      albumName: 'Two Sides',
      trackNumber: 1,
      discNumber: 1,
      durationMs: 195000,
      isrc: 'USAB12100001',
    });
    expect(song.relationships.artists.data.map((a: { id: string; attributes: { name: string } }) => [a.id, a.attributes.name])).toEqual([
      ['isni-0000000121032683', 'Alpha'],
      [nameId('Beta'), 'Beta'],
      [nameId('Gamma'), 'Gamma'],
    ]);
    expect(song.relationships.albums.data[0]).toMatchObject({ id: '0036000291452', attributes: { name: 'Two Sides', upc: '036000291452' } });
    const closing = (await server.get('/v1/songs/lookup?isrc=USAB12100003')).body.data[0].attributes;
    expect(closing).toMatchObject({ name: 'Closing', discNumber: 2, trackNumber: 1, durationMs: 60000 });
  });

  it('ERN 3.8 song by ISRC in /openmusic: the same', async () => {
    const r = await server.get('/openmusic/songs?isrc=USAB12100002&include=albums,artists');
    expect(r.status).toBe(200);
    const [song] = r.body.data;
    expect(song.attributes).toMatchObject({ name: 'Middle (Live at Home)', album_name: 'Two Sides', track_number: 2, disc_number: 1 });
    expect(song.instance.duration_in_ms).toBe(263583);
    expect(song.relationships.artists.map((a: { attributes: { name: string } }) => a.attributes.name)).toEqual(['Alpha']);
    expect(song.relationships.albums[0]).toMatchObject({ id: '0036000291452', attributes: { name: 'Two Sides', upc: '036000291452' } });
  });

  it.skipIf(!HAVE_SHARED)(`ERN 4.3 song by ISRC in /v1 and /openmusic${SHARED_NOTE}`, async () => {
    const v1 = (await server.get(`/v1/songs/lookup?isrc=${ISRC_43}&include=albums,artists`)).body.data[0];
    expect(v1.attributes).toMatchObject({
      name: 'Yume no Hajimari - Kaze no Okuri Mono (Introduction)',
      artistName: 'Saeko Shu',
      albumName: 'Yume no Hajmari',
      trackNumber: 2,
      discNumber: 1,
      durationMs: 102000,
    });
    expect(v1.relationships.artists.data.map((a: { attributes: { name: string } }) => a.attributes.name)).toEqual(['Saeko Shu']);
    expect(v1.relationships.albums.data[0]).toMatchObject({
      id: '0094631432057',
      attributes: { name: 'Yume no Hajmari', upc: '0094631432057', trackCount: 21 },
    });
    const om = (await server.get(`/openmusic/songs?isrc=${ISRC_43}&include=albums,artists`)).body.data[0];
    expect(om.attributes).toMatchObject({
      name: 'Yume no Hajimari - Kaze no Okuri Mono (Introduction)',
      artist_name: 'Saeko Shu',
      album_name: 'Yume no Hajmari',
      track_number: 2,
      disc_number: 1,
    });
    expect(om.instance.duration_in_ms).toBe(102000);
    expect(om.relationships.artists.map((a: { attributes: { name: string } }) => a.attributes.name)).toEqual(['Saeko Shu']);
    expect(om.relationships.albums[0]).toMatchObject({ id: '0094631432057', attributes: { upc: '0094631432057', track_count: 21 } });
  });
});

describe('end to end: a later update and a later purge, as the API shows them', () => {
  const base = readFileSync(own('ern382-multidisc.xml'), 'utf8');
  /** The same release delivered again later with the first track retitled and the last one dropped. */
  const update = base
    .replace('<MessageCreatedDateTime>2021-03-04T10:00:00Z</MessageCreatedDateTime>', '<MessageCreatedDateTime>2021-06-01T10:00:00Z</MessageCreatedDateTime>')
    .replaceAll('<TitleText>Opening</TitleText>', '<TitleText>Opening (2021 Remaster)</TitleText>');
  let dir: string;
  beforeAll(() => {
    dir = tempDir('omm-ddex-batch-');
    writeFileSync(join(dir, 'a-update.xml'), update);
  });
  const importAndServe = async (inputs: string[]): Promise<TestServer> => {
    const raw = join(tempDir('omm-ddex-raw-'), 'raw');
    await runStreamedImport('DDEX', { out: raw, progress: null }, (sink, report) => readDdex(inputs, sink, report));
    return serveRaw(raw);
  };

  it('the later message wins whatever the file order: its title in both interfaces', async () => {
    // a-update.xml sorts before the original by name, and is still the later word.
    const server = await importAndServe([join(dir, 'a-update.xml'), own('ern382-multidisc.xml')]);
    try {
      expect((await server.get('/v1/songs/lookup?isrc=USAB12100001')).body.data[0].attributes).toMatchObject({
        name: 'Opening (2021 Remaster)',
        albumName: 'Two Sides',
        trackNumber: 1,
      });
      expect((await server.get('/openmusic/songs?isrc=USAB12100001')).body.data[0].attributes).toMatchObject({
        name: 'Opening (2021 Remaster)',
        album_name: 'Two Sides',
      });
    } finally {
      await server.close();
    }
  });

  it('a later purge removes the album and its songs from both interfaces', async () => {
    const server = await importAndServe([own('ern382-multidisc.xml'), join(dir, 'a-update.xml'), own('ern382-purge.xml'), own('ern382-main-last.xml')]);
    try {
      const v1 = await server.get('/v1/songs/lookup?isrc=USAB12100001');
      expect([v1.status, v1.body.data ?? []]).toEqual([v1.status === 404 ? 404 : 200, []]);
      const om = await server.get('/openmusic/songs?isrc=USAB12100001');
      expect([om.status, om.body.data ?? []]).toEqual([om.status === 404 ? 404 : 200, []]);
      expect((await server.get('/v1/albums/lookup?upc=036000291452')).body.data ?? []).toEqual([]);
      // The other release of the batch is still served.
      expect((await server.get('/v1/songs/lookup?isrc=FRZ031900001')).body.data).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
