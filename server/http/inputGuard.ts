import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from './errors';

/** Deepest nesting of arrays and objects a request body may have; no screen of the product needs more than a few. */
export const MAX_JSON_DEPTH = 64;
/**
 * The server's body limit, for every route that does not set its own: every form of the product fits in far
 * less. Routes that take more (a report's config, the data model) name their own limit.
 */
export const DEFAULT_BODY_LIMIT = 64 * 1024;
/** Body limit of the routes that take a whole document: a report's config, the data model's custom fields. */
export const DOCUMENT_BODY_LIMIT = 1024 * 1024;

export const NUL_IN_TEXT = 'Text cannot contain the NUL character';
export const INVALID_UNICODE = 'Text must be valid Unicode';
export const TOO_DEEP = `The request is nested deeper than ${MAX_JSON_DEPTH} levels`;
export const INVALID_URL = 'The address of the request is not valid';

/** A UTF-16 surrogate without its partner: JavaScript strings may hold one, but no database can store it as sent. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function checkText(text: string): void {
  // PostgreSQL refuses NUL in text and JSON; drivers would replace a lone surrogate with U+FFFD.
  if (text.includes('\u0000')) throw badRequest(NUL_IN_TEXT);
  if (LONE_SURROGATE.test(text)) throw badRequest(INVALID_UNICODE);
}

/**
 * Throws a 400 when any string (value or key) of `value` holds NUL or a lone surrogate, or when arrays and objects
 * nest deeper than MAX_JSON_DEPTH. JSON.parse itself is iterative, so a deep body arrives here whole; the walk
 * stops at the bound, so it never recurses further than that.
 */
export function checkInput(value: unknown, depth = 0): void {
  if (typeof value === 'string') {
    checkText(value);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth >= MAX_JSON_DEPTH) throw badRequest(TOO_DEEP);
  if (Array.isArray(value)) {
    for (const item of value) checkInput(item, depth + 1);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    checkText(key);
    checkInput(item, depth + 1);
  }
}

const isJson = (contentType: string | undefined) => /^application\/([\w.+-]+\+)?json\b/i.test(contentType ?? '');

/**
 * Passes a JSON body through while checking that its bytes are UTF-8: the body parsers decode with replacement
 * characters, which would store something else than was sent (an encoded surrogate, a cut sequence).
 */
class Utf8Check extends Transform {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.decoder.decode(chunk, { stream: true });
      callback(null, chunk);
    } catch {
      callback(badRequest(INVALID_UNICODE));
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.decoder.decode();
      callback();
    } catch {
      callback(badRequest(INVALID_UNICODE));
    }
  }
}

function checkRequest(request: FastifyRequest): void {
  checkInput(request.params);
  checkInput(request.query);
  checkInput(request.body);
}

/**
 * The one guard against input no route can store: NUL characters, lone surrogates and invalid UTF-8 in the body,
 * the path or the query; JSON nested deeper than MAX_JSON_DEPTH; bodies over the route's limit (413). Each is a
 * 400 with a plain message before any handler runs, on every route, whichever body parser a plugin uses. The
 * server's bodyLimit is DEFAULT_BODY_LIMIT (see buildApp).
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) =>
    isJson(request.headers['content-type']) ? payload.pipe(new Utf8Check()) : payload,
  );
  app.addHook('preValidation', async (request) => checkRequest(request));
}

/**
 * Fastify's own answers to a path it cannot decode (invalid UTF-8 in a percent-encoding) or a path parameter that
 * is too long, in the product's `{error}` shape instead of Fastify's; pass as the `frameworkErrors` option.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void reply
    .code(error.statusCode ?? 400)
    .send({ error: error.code === 'FST_ERR_BAD_URL' ? INVALID_URL : error.message });
}
