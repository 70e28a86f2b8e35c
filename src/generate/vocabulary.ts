/**
 * Word lists for synthetic names, per script, most frequent first (the generator draws them with
 * Zipf frequencies). Scripts are weighted so most names are Latin, as in real catalogs.
 */
export interface Script {
  readonly name: string;
  readonly weight: number;
  /** Joiner between words (CJK titles have none). */
  readonly joiner: string;
  readonly words: readonly string[];
  /** Lyrics language for songs in this script (BCP 47). */
  readonly language: string;
}

const english = `love the you night heart time away home light life dream fire rain day baby girl world
summer blue sky dance song road gold wild free river moon star sun lost young forever again
running back down together alone city eyes soul heaven fall kiss shadow stay tonight wind
electric ocean silver midnight morning fever paradise golden rose thunder velvet echo neon
highway radio diamond storm angel ghost sugar honey crystal desert winter spring island
broken hearts little big better last first only true sweet cold hot high low slow fast
burning falling rising waiting calling dancing dreaming talking walking crying flying
memory promise secret mirror window garden forest mountain valley shore harbor train
letter story chance wonder magic freedom trouble danger glory mercy silence thunderstorm`.split(/\s+/);

const accented = `amor corazón noche canción vida fuego cielo mañana días mar luz sueño alma tú
café été rêve lumière cœur chanson étoile soleil fête déjà vû naïve mémoire
saudade coração canção estrela manhã irmão ação nação não mãe
tình yêu đêm trăng người em anh mùa xuân biển nhớ về hạnh phúc giấc mơ
über schön grüße mädchen straße fräulein träume
ánimo señor niño año`.split(/\s+/);

const cyrillic = `любовь ночь сердце звезда песня город время жизнь мечта небо зима весна солнце
дорога море ветер снег дом мама друг свет тень огонь река душа осень лето`.split(/\s+/);

const greek = `αγάπη νύχτα καρδιά αστέρι τραγούδι θάλασσα ήλιος φεγγάρι όνειρο ζωή ουρανός
βροχή δρόμος φως σπίτι χορός καλοκαίρι`.split(/\s+/);

const chinese = `爱 夜 心 星 歌 梦 雨 风 花 月 光 海 天 城 路 春 秋 雪 火 水 你 我 的 一 时 间 远 方 回 家`.split(/\s+/);

const japanese = `さくら ひかり ゆめ よる こころ ほし うた あめ かぜ そら はな つき あい きみ ぼく
ナイト ドリーム スター ラブ メモリー 東京 夏 恋 空 涙 未来`.split(/\s+/);

const korean = `사랑 밤 마음 별 노래 꿈 비 바람 하늘 바다 봄 여름 가을 겨울 너 나 우리 빛 기억 시간`.split(/\s+/);

const arabic = `حب ليل قلب نجمة أغنية حلم مطر ريح سماء بحر شمس قمر حياة روح`.split(/\s+/);

export const SCRIPTS: readonly Script[] = [
  { name: 'latin', weight: 70, joiner: ' ', words: english, language: 'en' },
  { name: 'accented', weight: 9, joiner: ' ', words: accented, language: 'es' },
  { name: 'cyrillic', weight: 5, joiner: ' ', words: cyrillic, language: 'ru' },
  { name: 'greek', weight: 2, joiner: ' ', words: greek, language: 'el' },
  { name: 'chinese', weight: 5, joiner: '', words: chinese, language: 'zh-Hans' },
  { name: 'japanese', weight: 4, joiner: '', words: japanese, language: 'ja' },
  { name: 'korean', weight: 3, joiner: ' ', words: korean, language: 'ko' },
  { name: 'arabic', weight: 2, joiner: ' ', words: arabic, language: 'ar' },
];

export const GENRES = [
  'Pop',
  'Rock',
  'Hip-Hop',
  'R&B',
  'Electronic',
  'Dance',
  'Jazz',
  'Blues',
  'Classical',
  'Country',
  'Folk',
  'Metal',
  'Punk',
  'Reggae',
  'Latin',
  'K-Pop',
  'J-Pop',
  'Soul',
  'Funk',
  'Ambient',
  'Indie',
  'Alternative',
  'Soundtrack',
  'World',
  'Música Popular Brasileira',
] as const;

export const VERSION_SUFFIXES = [' - Remastered 2011', ' - Live', ' - Radio Edit', ' (Acoustic)', ' - Remix', ' (Demo)'] as const;

export const LABELS = [
  'Northern Lights Records',
  'Blue Harbor',
  'Estrella Discos',
  'Kaleido Music',
  'Red Brick Sound',
  'Orbit Audio',
  'Saffron Tapes',
  'Nightjar',
] as const;

export const ISRC_COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'KR', 'BR', 'SE', 'NL', 'CA', 'AU', 'QM', 'QZ'] as const;
