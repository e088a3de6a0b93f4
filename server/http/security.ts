import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizeHost } from '../config';

/**
 * The Content-Security-Policy of every answer (pages, assets, workers, API). What each source is for:
 * - script-src 'wasm-unsafe-eval': DuckDB-WASM compiles its WebAssembly module; no JavaScript eval.
 * - worker-src / connect-src blob:: the DuckDB worker downloads its module and compiles it from an
 *   in-memory blob: URL (src/workers/duckdb.worker.ts).
 * - img-src https: data: blob:: rich-text images are any https address; plotly and Blueprint draw
 *   some icons from data: URLs; workspace logos come from our own /api/assets.
 * - frame-src: rich-text videos are only ever YouTube or Vimeo players (videoEmbedUrl).
 * - style-src 'unsafe-inline': plotly adds its own <style> element at run time and a widget library writes
 *   style attributes (both reported as violations by e2e/csp.spec.ts without it); a style cannot run code.
 * Nothing may frame the product (clickjacking), load plugins, or change the base URL of relative links.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "connect-src 'self' blob:",
  "img-src 'self' data: blob: https:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  'frame-src https://www.youtube.com https://player.vimeo.com',
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/**
 * Pages whose address carries a secret (the sign-in link's token and code, an invitation token): they
 * send no Referer at all, so neither an image in the page nor a followed link learns it.
 */
const SECRET_IN_URL = /^\/(login\/email\/|api\/invitations\/)/;

/** Answers of the API and the session route: personal data (the MFA secret above all), never stored. */
const API_PATH = /^\/(api|session)(\/|\?|$)/;

/** Requests whose Host names none of ours are refused with this status (421 Misdirected Request). */
export const MISDIRECTED_STATUS = 421;

/**
 * DNS rebinding defence: an attacker's domain that resolves to this server makes the victim's browser
 * treat our answers as the attacker's own origin. Only the hosts in the configuration are served; the
 * health check stays open to load balancers, which call it by address.
 */
async function hostGuard(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (request.routeOptions.url === '/api/health') return undefined;
  const host = request.host ? normalizeHost(request.host) : null;
  if (host !== null && request.server.config.allowedHosts.includes(host)) return undefined;
  request.log.warn({ host: request.host }, 'request for a host that is not ours refused');
  return reply.code(MISDIRECTED_STATUS).send({ error: 'Misdirected request' });
}

/** The security headers, set here once for every answer; a header a route set itself is kept. */
async function securityHeaders(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const pathname = request.url.split('?')[0];
  if (!reply.hasHeader('content-security-policy')) reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', SECRET_IN_URL.test(pathname) ? 'no-referrer' : 'strict-origin-when-cross-origin');
  if (API_PATH.test(pathname) && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  return payload;
}

/** Registers both on the root instance, before any route, so they cover every answer. */
export function registerHttpSecurity(app: FastifyInstance): void {
  app.addHook('onRequest', hostGuard);
  app.addHook('onSend', securityHeaders);
}
