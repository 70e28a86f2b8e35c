import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { pathTemplates, responsePointer, schemaRef, type PathTemplate } from './openapi-paths.js';
import { missingShared } from './requirements.js';

/**
 * Validates interface-2 responses against the component schemas of the public OpenMusic
 * OpenAPI document in ../shared/reference (read at test time, never shipped). When the file is
 * not there (a clone without ../shared), `referenceAvailable` is false and the callers say so.
 *
 * One adjustment, to the reference's own benefit: its resource unions are `oneOf: [SongBase,
 * Song]`, and a full Song is also a valid SongBase (no additionalProperties), so no full resource
 * could ever pass a oneOf. They are read as: a resource with `attributes` must be the full one
 * (so its attributes are checked), one without must be the base one (a minimal view). Formats
 * are checked as ajv-formats defines them, `format: uri` included: our artwork URLs are URIs
 * there, never `{w}x{h}` templates.
 */
export const REFERENCE_PATH = fileURLToPath(new URL('../../../shared/reference/openmusic-instance-style.openapi.yml', import.meta.url));
/** Under CI its absence throws (requirements.ts): /openmusic bodies are then never left unchecked. */
export const referenceAvailable = missingShared(REFERENCE_PATH) === null;

type Doc = {
  paths: Record<string, { get: { responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> } }>;
  components: { schemas: Record<string, unknown> };
};

let state: { doc: Doc; ajv: Ajv2020; templates: PathTemplate[]; compiled: Map<string, ValidateFunction> } | null = null;

function load() {
  if (state) return state;
  const doc = parse(readFileSync(REFERENCE_PATH, 'utf8')) as Doc;
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    const s = schema as Record<string, unknown>;
    if ((name.endsWith('Resource') || name === 'AnyResource') && Array.isArray(s.oneOf)) {
      const refs = s.oneOf as { $ref: string }[];
      const base = refs.filter((r) => r.$ref.endsWith('Base'));
      const full = refs.filter((r) => !r.$ref.endsWith('Base'));
      // With attributes, the full resource (so the attributes are checked); without, the base.
      Object.assign(s, { if: { type: 'object', required: ['attributes'] }, then: { anyOf: full }, else: { anyOf: base } });
      delete s.oneOf;
    }
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc as object, 'reference');
  // The reference's root path `/` is our `/openmusic/`.
  const templates = pathTemplates(doc.paths, '/openmusic');
  state = { doc, ajv, templates, compiled: new Map() };
  return state;
}

/** Throws when an /openmusic response does not match the reference; returns the schema used. */
export function assertMatchesReference(path: string, status: number, body: unknown): string {
  const { doc, ajv, templates, compiled } = load();
  const pathname = path.split('?')[0];
  let pointer: string;
  if (status >= 400) pointer = '/components/schemas/ErrorResponse';
  else {
    const found = templates.find((t) => t.regex.test(pathname));
    if (!found) throw new Error(`${path}: the reference lists no such operation`);
    const response = doc.paths[found.template].get.responses[String(status)];
    if (!response?.content) throw new Error(`${path}: the reference lists no ${status} body`);
    pointer = responsePointer(found.template, status);
  }
  let validate = compiled.get(pointer);
  if (!validate) compiled.set(pointer, (validate = ajv.compile(schemaRef('reference', pointer))));
  if (!validate(body))
    throw new Error(`${status} ${path}: body does not match the reference (${pointer}): ${ajv.errorsText(validate.errors?.slice(0, 5), { dataVar: 'body' })}`);
  return pointer;
}
