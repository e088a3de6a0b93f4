import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGNED_IN_HINT_COOKIE } from '../../src/contracts/cookies';

export const SESSION_COOKIE = 'openrate_session';
/** Binds an e-mail sign-in link to the browser that asked for it. */
export const LOGIN_COOKIE = 'openrate_login';
/** State and nonce of a Google sign-in in progress. */
export const OIDC_COOKIE = 'openrate_oidc';

/** httpOnly (except the signed-in hint), SameSite=Lax, and Secure whenever the request came over https. */
export function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  expires: Date,
  path = '/',
): void {
  reply.setCookie(name, value, {
    httpOnly: name !== SIGNED_IN_HINT_COOKIE,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path,
    expires,
  });
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string, path = '/'): void {
  reply.clearCookie(name, {
    httpOnly: name !== SIGNED_IN_HINT_COOKIE,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path,
  });
}

/**
 * The page's signed-in hint (src/contracts/cookies.ts) in step with a session: set with its expiry while it is signed
 * in, else cleared if the browser sent it. Every sign-in, sign-out and answer of /session keeps it so.
 */
export function hintSignedIn(request: FastifyRequest, reply: FastifyReply, signedInUntil: Date | undefined): void {
  if (signedInUntil) setCookie(request, reply, SIGNED_IN_HINT_COOKIE, '1', signedInUntil);
  else if (request.cookies[SIGNED_IN_HINT_COOKIE] !== undefined) clearCookie(request, reply, SIGNED_IN_HINT_COOKIE);
}
