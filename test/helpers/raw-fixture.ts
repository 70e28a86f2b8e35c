import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRawCsv } from '../../src/generate/daily-changes.js';

/** A fresh temporary directory for one test. */
export function tempDir(prefix = 'omm-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export type RawFiles = Record<string, string>;

/** Writes raw CSV files (name without .csv -> content) into a new directory. */
export function writeRaw(files: RawFiles, dir = tempDir('omm-raw-')): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) if (content !== undefined) writeFileSync(join(dir, `${name}.csv`), content);
  return dir;
}

/**
 * A small catalog exercising every file and rule: multi-artist credits in order, a song on two
 * albums, UPC-A and EAN-13, a shared ISRC, non-Latin names, files with a preferred one, lyrics in
 * two languages, playlists with a repeated song, a custom station and an explore group.
 */
export const SMALL_CATALOG: RawFiles = {
  artists: [
    'id,name,omm_id,artwork_url,genres,popularity,date_added',
    '1,Ärzte,,https://img.example.com/ar1.jpg,Rock|Punk,50,2020-01-01',
    '2,"Smith, John",,,,10,2021-06-01T10:00:00Z',
    '3,坂本龍一,abcdefghij012345,,Ambient,70,',
    '4,Zed,,,,0,',
  ].join('\n'),
  albums: [
    'id,name,upc,label,release_date,artwork_url,genres,popularity,date_added',
    '10,First Light,036000291452,Blue Label,2001-05-03,https://img.example.com/a10.jpg,Rock,30,2020-02-02',
    '11,Второй,4006381333931,,1999,,Ambient,80,',
    '12,Compilation,,,2010-07,,,5,',
  ].join('\n'),
  album_artists: ['album_id,artist_id,position', '10,2,2', '10,1,1', '11,3,1', '12,4,1'].join('\n'),
  songs: [
    'id,name,isrc,duration_ms,genres,release_date,artwork_url,popularity,date_added',
    '100,Song A,us-rc1-76-07839,200000,,,,5,2020-01-05',
    '101,"Song, B",USRC17607840,180000,,,,9,2020-01-04',
    '102,Ñandú,USRC17607839,,,,,1,',
    '103,"Quote ""Q""",GBAYE0000351,90000,Jazz,2015-03-03,https://img.example.com/s103.jpg,100,2019-12-31',
  ].join('\n'),
  song_artists: ['song_id,artist_id,position', '101,2,1', '101,1,2'].join('\n'),
  album_tracks: ['album_id,song_id,disc_number,track_number', '10,100,1,1', '10,101,1,2', '11,102,1,1', '12,100,1,1', '12,103,2,1'].join('\n'),
  files: [
    'id,song_id,mime_type,codec,lossless,bitrate_kbps,sample_rate_hz,channels,size_bytes,duration_ms,stream_url,download_url,preferred',
    'f1,100,audio/flac,flac,true,900,44100,2,22000000,,https://cdn.example.com/f1.flac,https://cdn.example.com/f1.flac?dl=1,false',
    'f2,100,audio/mpeg,mp3,false,320,44100,2,8000000,,https://cdn.example.com/f2.mp3,,true',
    'f3,103,audio/mp4,aac,no,256,48000,2,,91000,,,',
  ].join('\n'),
  lyrics: ['song_id,language,text,ttml', '100,en-us,"la la\nla",', '100,ja,ラララ,<tt/>'].join('\n'),
  playlists: [
    'id,name,curator_name,description,artwork_url,genres,popularity,date_added',
    'p1,Morning,Ed,"Calm, slow",,Ambient,3,2022-01-01',
    'p2,Empty,,,,,0,',
  ].join('\n'),
  playlist_tracks: ['playlist_id,song_id,position', 'p1,103,2', 'p1,100,1', 'p1,100,3'].join('\n'),
  stations: ['id,name,description,artwork_url', 'focus,Focus,Deep work,'].join('\n'),
  station_tracks: ['station_id,song_id,position', 'focus,102,1', 'focus,101,2'].join('\n'),
  explore_groups: ['id,title,type,position', 'g2,Hot Albums,album,2', 'g1,Picks,song,1'].join('\n'),
  explore_items: ['group_id,resource_id,position', 'g1,103,1', 'g1,100,2', 'g2,11,1'].join('\n'),
};

/** A raw CSV file of `dir` as rows of header name -> cell text. */
export function readRawTable(dir: string, file: string): Record<string, string>[] {
  return readRawCsv(join(dir, `${file}.csv`));
}
