/** Building blocks of our OpenAPI document's operations, shared by both interfaces' paths. */
export type Json = Record<string, unknown>;

/** A JSON response whose body is a component schema. */
export const json = (schema: string, description: string): Json => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

export const param = (name: string, where: 'query' | 'path', description: string, schema: Json = { type: 'string' }, required = where === 'path'): Json => ({
  name,
  in: where,
  required,
  description,
  schema,
});

/**
 * `get(...)` for one interface: its 400/404/405 responses carry `errorSchema`, the 400 described
 * by `badRequest` (how that interface names the bad parameters).
 */
export function getOperations(errorSchema: string, badRequest: string): (summary: string, parameters: Json[], ok: string, tag: string) => Json {
  const errors: Json = {
    '400': json(errorSchema, badRequest),
    '404': json(errorSchema, 'Unknown resource'),
    '405': json(errorSchema, 'Only GET and HEAD are served'),
    '414': json(errorSchema, 'The URL is longer than the server accepts'),
    '429': json(errorSchema, 'Rate limit (when enabled): wait the seconds in Retry-After'),
  };
  return (summary, parameters, ok, tag) => ({
    get: {
      summary,
      tags: [tag],
      parameters,
      responses: { '200': json(ok, 'OK'), '304': { description: 'Not modified: If-None-Match named the current ETag' }, ...errors },
    },
  });
}
