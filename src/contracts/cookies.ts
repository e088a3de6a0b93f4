/**
 * The cookie the server sets beside the (httpOnly) session cookie while a session is signed in, readable by the
 * page: its value is `1` and it has the session's expiry (server/auth/cookies.ts). It says nothing the session's
 * answer does not; it only lets a page start as a signed-in visitor's before that answer (src/app/signedInHere.ts).
 */
export const SIGNED_IN_HINT_COOKIE = 'openrate_signed_in';
