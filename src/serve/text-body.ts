/** The content type of every JSON response. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** A handler result sent as it is, not as JSON: the metrics text, the draining /readyz. */
export class TextBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
    readonly status = 200,
  ) {}
}
