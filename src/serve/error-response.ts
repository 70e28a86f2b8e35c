import { STATUS_CODES } from 'node:http';
import { ApiError } from './api-error.js';

/** Which interface's error body to write. */
export type ErrorStyle = 'v1' | 'openmusic';

export interface ErrorResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  readonly code: string;
  /** The original error when it was not an ApiError (for the log; never sent). */
  readonly internal?: unknown;
}

/**
 * The one place that turns any thrown value into an HTTP error response. ApiErrors keep their
 * status, message and details; anything else is a 500 that shows no internals.
 */
export function errorResponse(err: unknown, style: ErrorStyle, requestId: string): ErrorResponse {
  const api = err instanceof ApiError ? err : new ApiError(500, 'Internal server error');
  const body =
    style === 'v1'
      ? {
          error: {
            status: api.status,
            message: api.message,
            details: api.details.map((d) => ({ message: d.message, param: d.param ?? null, value: d.value === undefined ? null : d.value })),
            requestId,
          },
        }
      : // Interface 2's body has no details: the message names every bad parameter itself.
        {
          error: {
            code: api.status,
            title: STATUS_CODES[api.status] ?? 'Error',
            message: api.details.length > 1 ? api.details.map((d) => d.message).join('; ') : api.message,
            trace_id: requestId,
          },
        };
  return { status: api.status, body, headers: api.headers, code: api.code, internal: err instanceof ApiError ? undefined : err };
}
