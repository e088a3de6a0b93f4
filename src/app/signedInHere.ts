import { SIGNED_IN_HINT_COOKIE } from '../contracts/cookies';

/** The member id of whoever last used the app in this browser, to notice that someone else signed in. */
export const LAST_MEMBER_KEY = 'signedInMemberId';

/**
 * Whether this browser probably holds a signed-in session, known before the session's answer: someone signed in here
 * last time and did not sign out, or the server's signed-in hint is among the page's cookies (a browser whose site
 * storage was cleared, or one that signed in before members were remembered). The session's answer still decides
 * what the visitor sees; a wrong guess costs requests that answer 401 and an engine nobody uses. Free of imports, so
 * the page's first module may ask it (src/app/compileAhead.ts).
 */
export function signedInHere(storage: Pick<Storage, 'getItem'>, cookies: string): boolean {
  if (storage.getItem(LAST_MEMBER_KEY) !== null) return true;
  return cookies.split(';').some((cookie) => cookie.trim() === `${SIGNED_IN_HINT_COOKIE}=1`);
}
