/** One problem with a request: which parameter, what value, what is wrong. */
export interface ErrorDetail {
  readonly message: string;
  readonly param?: string;
  readonly value?: unknown;
}

/** Stable codes for logs and metrics; the HTTP status and message are what clients see. */
export type ApiErrorCode = 'E_BAD_REQUEST' | 'E_NOT_FOUND' | 'E_METHOD' | 'E_TOO_LARGE' | 'E_RATE_LIMITED' | 'E_INTERNAL' | 'E_UNAVAILABLE';

/** An error a handler throws on purpose; anything else becomes a 500 without internals. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: readonly ErrorDetail[] = [],
    readonly code: ApiErrorCode = codeFor(status),
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function codeFor(status: number): ApiErrorCode {
  if (status === 404) return 'E_NOT_FOUND';
  if (status === 405) return 'E_METHOD';
  if (status === 413 || status === 414) return 'E_TOO_LARGE';
  if (status === 429) return 'E_RATE_LIMITED';
  if (status === 503) return 'E_UNAVAILABLE';
  return status >= 500 ? 'E_INTERNAL' : 'E_BAD_REQUEST';
}

export const notFound = (message = 'Resource not found'): ApiError => new ApiError(404, message);

/** A 400 for one or more bad parameters. */
export const invalidParameters = (details: readonly ErrorDetail[]): ApiError =>
  new ApiError(400, details.length === 1 ? details[0].message : `${details.length} invalid parameters`, details);

/** An error about one parameter (or none): the message doubles as the detail. */
export const requestError = (status: number, message: string, param?: string, value?: unknown): ApiError =>
  new ApiError(status, message, param === undefined ? [] : [{ message, param, value: value ?? null }]);

export const badRequest = (message: string, param?: string, value?: unknown): ApiError => requestError(400, message, param, value);

export const uriTooLong = (limit: number): ApiError => new ApiError(414, `URL too long: this server accepts at most ${limit} characters`);

export const rateLimited = (retryAfterSeconds: number): ApiError => {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiError(429, `Too many requests; retry after ${seconds} s`, [], 'E_RATE_LIMITED', { 'retry-after': String(seconds) });
};
