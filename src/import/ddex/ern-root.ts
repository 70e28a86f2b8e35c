import { ImportError } from '../import-error.js';

/** The two shapes of ERN this reader takes: 3.8.x (…DetailsByTerritory, inline parties) and 4.x (PartyList, TrackRelease). */
export type ErnFamily = '3.8' | '4';

export type MessageKind = 'NewReleaseMessage' | 'PurgeReleaseMessage';

export interface ErnRoot {
  readonly family: ErnFamily;
  /** `ERN 4.3`, for messages. */
  readonly version: string;
  readonly kind: MessageKind;
  /** The root's LanguageAndScriptCode: the script names without one are in. */
  readonly language: string | undefined;
}

const NAMESPACES: Readonly<Record<string, ErnFamily>> = {
  'http://ddex.net/xml/ern/38': '3.8',
  'http://ddex.net/xml/ern/381': '3.8',
  'http://ddex.net/xml/ern/382': '3.8',
  'http://ddex.net/xml/ern/383': '3.8',
  'http://ddex.net/xml/ern/41': '4',
  'http://ddex.net/xml/ern/411': '4',
  'http://ddex.net/xml/ern/42': '4',
  'http://ddex.net/xml/ern/43': '4',
};

const KINDS = new Set<string>(['NewReleaseMessage', 'PurgeReleaseMessage']);

/** `http://ddex.net/xml/ern/382` → `ERN 3.8.2`; null for a namespace that is not ERN's. */
export function ernVersionName(uri: string): string | null {
  const m = /^https?:\/\/ddex\.net\/xml\/ern\/(\d)(\d*)\/?$/.exec(uri);
  if (!m) return null;
  return `ERN ${[m[1], ...m[2].split('')].join('.')}`;
}

/**
 * Checks the root element by namespace URI (never by prefix) and local name, and says which
 * family of ERN it is. Anything else is an E_IMPORT_FORMAT error naming what was found.
 */
export function ernRoot(file: string, name: string, uri: string, attrs: Readonly<Record<string, string>>, place: { line: number; column: number }): ErnRoot {
  const where = { file, line: place.line, column: place.column, path: name };
  const family = NAMESPACES[uri];
  const version = ernVersionName(uri);
  if (!family) {
    const found = version ? `${version} (${uri})` : uri ? `namespace ${uri}` : 'no namespace';
    throw new ImportError(
      'E_IMPORT_FORMAT',
      where,
      `not a DDEX message this reader takes: root element ${name} in ${found}; it reads ERN 3.8.x and 4.1 to 4.3 (http://ddex.net/xml/ern/38…383, 41…43)`,
    );
  }
  if (!KINDS.has(name)) {
    throw new ImportError(
      'E_IMPORT_FORMAT',
      where,
      `${name} (${version}) is not a message this reader takes: it reads NewReleaseMessage and PurgeReleaseMessage`,
    );
  }
  return { family, version: version ?? uri, kind: name as MessageKind, language: attrs.LanguageAndScriptCode };
}
