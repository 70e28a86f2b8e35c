/** Markup that is already safe: written by a template, never by data. */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** What a template may hold: text (escaped), markup, lists of either, or nothing. */
export type Fragment = Html | string | number | null | undefined | false | readonly Fragment[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function write(part: Fragment): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(write).join('');
  return escapeHtml(String(part));
}

/**
 * The one way the explorer writes markup: every value put into a template is escaped unless it
 * is markup made by another template, so catalog data (names, descriptions) never becomes markup.
 */
export function html(strings: TemplateStringsArray, ...values: readonly Fragment[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += write(values[i]) + strings[i + 1];
  return new Html(out);
}
