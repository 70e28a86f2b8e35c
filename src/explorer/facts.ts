import { duration } from './format.js';
import { html, type Fragment, type Html } from './html.js';

/** A resource's facts as a description list; a fact the catalog lacks says so rather than vanish. */
export function facts(rows: readonly (readonly [label: string, value: Fragment])[]): Html {
  const present = (value: Fragment) =>
    value !== null && value !== undefined && value !== false && value !== '' && !(Array.isArray(value) && value.length === 0);
  return html`<dl class="facts">${rows.map(([label, value]) => html`<dt>${label}</dt>${present(value) ? html`<dd>${value}</dd>` : html`<dd class="missing">none</dd>`}`)}</dl>`;
}

/** A duration with its machine-readable form. */
export function time(ms: number | undefined): Html | null {
  const text = duration(ms);
  return text === null ? null : html`<time datetime="PT${Math.round((ms as number) / 1000)}S">${text}</time>`;
}

/** A date as the catalog gives it (`2014`, `2014-10`, `2014-10-10`). */
export function date(value: string | undefined): Html | null {
  return value ? html`<time datetime="${value}">${value}</time>` : null;
}

export const code = (value: string | undefined): Html | null => (value ? html`<code>${value}</code>` : null);
