/** A handler result sent as it is, not as JSON: the metrics text, the draining /readyz. */
export class TextBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
    readonly status = 200,
  ) {}
}
