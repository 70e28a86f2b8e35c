/** How the explorer writes values a person reads: durations and artwork (sizes and counts: units/readable.ts). */

/** 199386 -> "3:19"; 3723000 -> "1:02:03". */
export function duration(ms: number | null | undefined): string | null {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return null;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * A duration as a person types it ("3:19", "1:02:03", "199", "199.4" seconds) in milliseconds;
 * undefined when empty, NaN when it is not one.
 */
export function parseDuration(text: string | undefined): number | undefined {
  const value = text?.trim() ?? '';
  if (value.length === 0) return undefined;
  if (!/^\d+(:\d{1,2}){0,2}(\.\d+)?$/.test(value)) return NaN;
  const seconds = value.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
  return Math.round(seconds * 1000);
}

/**
 * The catalog's artwork URL at a size, or null: a `{w}x{h}` template is filled in, and only an
 * absolute http or https URL is ever shown (no `javascript:`, no `data:`, nothing relative).
 */
export function artworkUrl(template: unknown, size: number): string | null {
  if (typeof template !== 'string' || template.length === 0) return null;
  const filled = template.replaceAll('{w}', String(size)).replaceAll('{h}', String(size));
  try {
    const url = new URL(filled);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
