/** An error whose message is safe to show to the caller, with its HTTP status. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra fields merged into the JSON body next to `error`. */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, body?: Record<string, unknown>) => new HttpError(400, message, body);
export const unauthorized = (message = 'Unauthorized') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
/** One generic answer for anything the caller may not know exists. */
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, body?: Record<string, unknown>) => new HttpError(409, message, body);
