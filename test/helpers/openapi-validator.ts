import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/interfaces/openapi/document.js';
import { pathTemplates, responsePointer, schemaRef } from './openapi-paths.js';

/**
 * Validates responses against our OpenAPI document: finds the operation by path template,
 * takes the response schema of the status, and checks the body with ajv (JSON Schema 2020-12,
 * as OpenAPI 3.1 uses). Every request made through test/helpers/server.ts goes through here,
 * so every response in the suite is checked.
 */
const document = openApiDocument('/v1') as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(document, 'openapi');

const templates = pathTemplates(document.paths);

const compiled = new Map<string, ValidateFunction>();

function validatorFor(template: string, status: string): ValidateFunction | null {
  const key = `${template} ${status}`;
  let fn = compiled.get(key);
  if (!fn) {
    const responses = document.paths[template].get.responses;
    if (!responses[status]?.content) return null;
    fn = ajv.compile(schemaRef('openapi', responsePointer(template, status)));
    compiled.set(key, fn);
  }
  return fn;
}

const errorValidator = ajv.compile({ $ref: 'openapi#/components/schemas/Error' });
const omErrorValidator = ajv.compile({ $ref: 'openapi#/components/schemas/OmError' });

/** Throws when a JSON response does not match the document; returns what it checked against. */
export function assertMatchesOpenApi(path: string, status: number, body: unknown): string {
  const pathname = path.split('?')[0];
  const found = templates.find((t) => t.regex.test(pathname));
  if (status >= 400) {
    const openMusic = pathname === '/openmusic' || pathname.startsWith('/openmusic/');
    const validate = openMusic ? omErrorValidator : errorValidator;
    if (!validate(body))
      throw new Error(`${status} ${path}: error body does not match the ${openMusic ? 'OmError' : 'Error'} schema: ${ajv.errorsText(validate.errors)}`);
    return openMusic ? 'OmError' : 'Error';
  }
  if (!found) throw new Error(`${status} ${path}: no operation in the OpenAPI document serves this path`);
  const validate = validatorFor(found.template, String(status));
  if (!validate) throw new Error(`${status} ${path}: the document lists no ${status} response for ${found.template}`);
  if (!validate(body))
    throw new Error(`${status} ${path}: body does not match ${found.template}: ${ajv.errorsText(validate.errors?.slice(0, 5), { dataVar: 'body' })}`);
  return found.template;
}
