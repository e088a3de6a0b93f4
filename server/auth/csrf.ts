import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden } from '../http/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The header every API call of the client sends; a cross-site form cannot set it. */
export const CSRF_HEADER = 'x-requested-with';
export const CSRF_HEADER_VALUE = 'openrate';

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The origins this server is reached on: its own host (already one of ours, see hostGuard), and PUBLIC_URL. */
export function ownOrigins(request: FastifyRequest): string[] {
  const origins = [originOf(`${request.protocol}://${request.host}`), request.server.config.publicUrl];
  return origins.filter((origin): origin is string => origin !== null);
}

/**
 * CSRF defence for the API: every state-changing call must carry `X-Requested-With: openrate`
 * (which forces a CORS preflight that this server never grants) and, when the browser names an
 * Origin, that origin must be our own.
 */
export async function csrfGuard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers[CSRF_HEADER] !== CSRF_HEADER_VALUE) throw forbidden();
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const normalized = originOf(origin);
    if (!normalized || !ownOrigins(request).includes(normalized)) throw forbidden();
  }
}
