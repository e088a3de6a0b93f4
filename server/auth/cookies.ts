import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'openrate_session';
/** Binds an e-mail sign-in link to the browser that asked for it. */
export const LOGIN_COOKIE = 'openrate_login';
/** State and nonce of a Google sign-in in progress. */
export const OIDC_COOKIE = 'openrate_oidc';

/** httpOnly, SameSite=Lax, and Secure whenever the request came over https. */
export function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  expires: Date,
  path = '/',
): void {
  reply.setCookie(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path,
    expires,
  });
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string, path = '/'): void {
  reply.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', path });
}
