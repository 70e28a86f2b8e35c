import { STATUS_CODES } from 'node:http';
import type { ErrorResponse } from '../../serve/error-response.js';
import { html } from '../html.js';
import type { PageParts } from '../site.js';

/**
 * A page route's error for a person: the status, message and details errorResponse decided
 * (the one place that decides them) and the request id to quote, in the page's frame.
 */
export function errorParts(error: ErrorResponse, requestId: string): PageParts {
  const title = `${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`;
  const { message, details } = (error.body as { error: { message: string; details?: { message: string }[] } }).error;
  const extra = (details ?? []).filter((d) => d.message !== message);
  return {
    title,
    main: html`<h1>${title}</h1>
<p class="problem">${message}</p>
${extra.length > 0 ? html`<ul>${extra.map((d) => html`<li>${d.message}</li>`)}</ul>` : ''}
<p>Request id <code>${requestId}</code> · <a href="/">Back to the explorer</a></p>`,
  };
}
