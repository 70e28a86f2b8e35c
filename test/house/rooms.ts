/**
 * The map of the house: each folder under src/ is a room, and a room imports only from the rooms
 * it lists (and from itself). Layers, bottom up; a room never imports from its own line or above,
 * except as listed. docs/architecture.md draws this map and says how a request and a raw row
 * move through it; test/house.test.ts fails when the code, this table and that page disagree,
 * and when a room may import a room or package it does not use (each line is exactly as wide as
 * the code).
 */
export interface Room {
  /** What the room owns, in one line. */
  readonly owns: string;
  /** Rooms below it that it may import from. */
  readonly imports: readonly string[];
  /** Packages (besides node: built-ins) its non-test files may import. */
  readonly packages: readonly string[];
}

export const ROOMS: Readonly<Record<string, Room>> = {
  // Layer 0: bytes and the raw dialect.
  'index-format': {
    owns: 'the snapshot format: shards, manifest, key and record tables, mmap, the search index bytes, publish, verify',
    imports: [],
    packages: ['msgpackr'],
  },
  raw: { owns: 'the raw CSV dialect: schema, parser, writer, rows, cell validation, ISRC/UPC/date codes', imports: [], packages: [] },
  sort: { owns: 'sorting larger than memory: external merge sorts of byte-keyed and fixed-size records within a budget', imports: [], packages: [] },
  units: { owns: 'numbers as people read them: sizes in binary units, counts', imports: [], packages: [] },
  'object-store': {
    owns: 'object storage over the S3 API and what a publish writes there: locations, the SDK client from its environment, content-defined chunks, build descriptors, the pointer',
    imports: [],
    packages: ['@aws-sdk/client-s3'],
  },
  http: {
    owns: "HTTP/1.1 below the server: the fast core (simple requests on node:net, a connection's limits, batched writes) and negotiation, ETags, CORS, rate limit",
    imports: [],
    packages: [],
  },
  // Layer 1: the read model over one snapshot.
  catalog: {
    owns: 'resource types, the catalog id scheme, records, relations, orders, views, stations, lyrics, explore feed',
    imports: ['index-format'],
    packages: ['msgpackr'],
  },
  // Layer 2: what the interfaces write, and search/match (ordinals and scores, never JSON).
  interfaces: {
    owns: "each interface's spec (what a request may ask for), its endpoints' parameters, its renderer (how a resource is written) and the OpenAPI document describing it; no parsing, no serving",
    imports: ['catalog'],
    packages: [],
  },
  search: { owns: 'the search engine and the matcher over the search index: ordinals and scores', imports: ['catalog', 'index-format'], packages: [] },
  // Layer 3: peers that never import each other.
  compile: {
    owns: 'raw CSV in, snapshot out: validate, derive, orders, relations, search index and its first pages, views',
    imports: ['raw', 'sort', 'index-format', 'catalog', 'interfaces', 'search'],
    packages: ['msgpackr'],
  },
  serve: {
    owns: 'the HTTP server: routes, request parsing, HTTP errors, caching, metrics, reload, cluster, the seam for HTML sites',
    imports: ['http', 'interfaces', 'search', 'catalog', 'index-format', 'raw'],
    packages: [],
  },
  diff: { owns: 'what changed between two snapshots', imports: ['catalog'], packages: [] },
  import: { owns: 'importers of other formats into the raw CSV dialect', imports: ['raw', 'sort'], packages: ['fast-csv', 'saxes', 'tar', 'xz-decompress'] },
  generate: { owns: 'the deterministic synthetic catalog, written as raw CSV', imports: ['raw'], packages: [] },
  takedown: {
    owns: 'takedowns without a compile: keys resolved, the deletes set decided, a snapshot sharing every shard published',
    imports: ['catalog', 'index-format', 'raw'],
    packages: [],
  },
  publish: {
    owns: 'a snapshot published to an object store: the chunks it lacks, the descriptor, the pointer by conditional write; pruning old builds',
    imports: ['index-format', 'object-store'],
    packages: [],
  },
  replica: {
    owns: "a cache directory that follows a store's pointer: polling, fetching and verifying a build, installing it, backoff",
    imports: ['index-format', 'object-store'],
    packages: [],
  },
  // Layer 4: HTML sites mounted on the server through its seam.
  explorer: {
    owns: 'the catalog explorer: HTML pages over interface 1 called in process, their assets and layout',
    imports: ['serve', 'interfaces', 'catalog', 'index-format', 'http', 'units'],
    packages: [],
  },
  // Layer 5: the one room that wires the others.
  cli: {
    owns: 'the omm commands: parse arguments, call a peer, print',
    imports: [
      'index-format',
      'catalog',
      'compile',
      'serve',
      'explorer',
      'diff',
      'import',
      'generate',
      'takedown',
      'publish',
      'replica',
      'object-store',
      'units',
    ],
    packages: ['commander'],
  },
};
