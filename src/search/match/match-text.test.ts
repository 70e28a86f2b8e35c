import { describe, expect, it } from 'vitest';
import { artistSet, matchTitle, sortedWords } from './match-text.js';
import { searchText } from '../../index-format/search/search-text.js';

// Hand-picked hard cases for the normaliser the matcher and the search index share. Not drawn
// from the quality harness's dev set (bench/quality), which stays out of this tuning loop.

describe('searchText: NFKC, case and accent folding, punctuation, in several scripts', () => {
  it.each([
    ['ＡＢＣ ﬁre', 'abc fire'], // full-width letters and a ligature (compatibility forms)
    ['BOHEMIAN Rhapsody', 'bohemian rhapsody'],
    ['Straße', 'strasse'],
    ['Łódź', 'lodz'],
    ['Tuổi xì tin', 'tuoi xi tin'], // Vietnamese: stacked marks
    ['Ελληνικά Άσμα', 'ελληνικα ασμα'], // Greek: tonos folded, case folded
    ['ДДТ — Осень', 'ддт осень'], // Cyrillic, a dash as punctuation
    ["Don't Stop Me Now!", 'don t stop me now'],
    ['  A  -  B  ', 'a b'],
  ])('%s -> %s', (input, expected) => {
    expect(searchText(input)).toBe(expected);
  });

  it('compares Hangul as its letters (jamo), so one wrong letter is one edit, and keeps the syllables one word', () => {
    expect(searchText('봄날')).toBe('봄날'.normalize('NFKD'));
    expect(searchText('봄날').split(' ')).toHaveLength(1);
  });

  it('splits Han and kana into one word per character, so a title is found by any of its characters', () => {
    expect(searchText('さよならの夏')).toBe('さ よ な ら の 夏');
    expect(searchText('《天官赐福》')).toBe('天 官 赐 福');
  });
});

describe('matchTitle: version and featuring notes split off', () => {
  it.each([
    ['Hey Jude - Remastered 2015', 'hey jude', ['remastered', '2015']],
    ['Song (Live)', 'song', ['live']],
    ['Song【Live】', 'song', ['live']], // CJK brackets
    ['Song（Live Version）', 'song', ['live']], // full-width brackets; "version" says nothing on its own
    ['Song [Radio Edit]', 'song', ['radio']],
    ['Wellerman - Sea Shanty - Live', 'wellerman sea shanty', ['live']], // trailing notes last first
    ['Кино - Live', 'кино', ['live']],
    ['Hukum - Thalaivar Alappara (From "Jailer")', 'hukum thalaivar alappara', ['jailer']],
  ])('%s: core %s, version words %j', (title, core, versionWords) => {
    const t = matchTitle(title);
    expect(t.core).toBe(core);
    expect(t.versionWords).toEqual(versionWords);
    expect(t.full).toBe(searchText(title));
  });

  it('keeps a bracket that is part of the title, and falls back to the whole title when nothing is left', () => {
    expect(matchTitle('Waka Waka (This Time for Africa)').core).toBe('waka waka this time for africa');
    expect(matchTitle('Waka Waka (This Time for Africa)').head).toBe('waka waka');
    expect(matchTitle('(Live)').core).toBe('live');
  });

  it.each([
    ['Mi Gente ft. Beyoncé', 'mi gente', ['beyonce']],
    ['Save Me (with Lainey Wilson)', 'save me', ['lainey wilson']],
    ['No Me Conocen (Remix) [con DUKI, Rei & Tiago PZK]', 'no me conocen remix', ['duki', 'rei', 'tiago pzk']],
    ['Body (Remix) [feat. ArrDee, E1 (3x3)]', 'body remix', ['arrdee', 'e1 3x3']], // nested brackets
    ['Style (Taylor’s Version) (feat. PiaLinh)', 'style taylor s version', ['pialinh']],
  ])('%s: plain %s, guests %j', (title, plain, featuring) => {
    const t = matchTitle(title);
    expect(t.plain).toBe(plain);
    expect(t.featuring).toEqual(featuring);
  });
});

describe('artistSet: credits as sets', () => {
  it.each([
    ['Daft Punk feat. Pharrell Williams', ['daft punk', 'pharrell williams']],
    ['Pharrell Williams, Daft Punk', ['pharrell williams', 'daft punk']],
    ['Selena Gomez & Ozuna y Cardi B', ['selena gomez', 'ozuna', 'cardi b']],
    ['Yến Tattoo & Masew', ['yen tattoo', 'masew']], // "Yến" is not the joiner "y"
    ['Ed Sheeran x Taylor Swift', ['ed sheeran', 'taylor swift']],
    ['椎名林檎 / 宇多田ヒカル', [searchText('椎名林檎'), searchText('宇多田ヒカル')]],
    ['ДДТ и Кино', ['ддт и кино']], // "и" is not a joiner we know: one name
    ['A & A', ['a']],
  ])('%s -> %j', (credit, expected) => {
    expect(artistSet(credit)).toEqual(expected);
  });

  it('compares word sets in any order', () => {
    expect(sortedWords('punk daft')).toBe(sortedWords('daft punk'));
  });
});
