/** Shared by the validators: finding an operation by path and pointing ajv at its schema. */

export interface PathTemplate {
  readonly template: string;
  readonly regex: RegExp;
}

/** The document's path templates as regexes (under `prefix`), static paths before templated ones, as the router does. */
export function pathTemplates(paths: Record<string, unknown>, prefix = ''): PathTemplate[] {
  return Object.keys(paths)
    .map((template) => ({
      template,
      regex: new RegExp(`^${prefix}${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      params: (template.match(/\{/g) ?? []).length,
    }))
    .sort((a, b) => a.params - b.params);
}

/** JSON pointer of an operation's JSON response schema. */
export const responsePointer = (template: string, status: number | string): string =>
  `/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/get/responses/${status}/content/application~1json/schema`;

/** A `$ref` into the schema registered as `id`, the pointer URI-encoded segment by segment. */
export const schemaRef = (id: string, pointer: string): { $ref: string } => ({
  $ref: `${id}#${pointer
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/%7E/g, '~'))
    .join('/')}`,
});
