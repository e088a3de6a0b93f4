import { randomBytes, randomInt } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { powChallengeSchema } from '../../src/contracts/auth';
import { solveChallenge } from '../../src/contracts/solveChallenge';
import { LOGIN_COOKIE, SESSION_COOKIE } from '../auth/cookies';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../auth/csrf';
import { memberships, outbox, users, workspaces } from '../db/schema';
import { setWorkspaceFlags } from '../services/flags';
import { createSession } from '../services/sessions';
import type { TestApp } from './testApp';

/** A unique e-mail address, so tests can share one database without colliding. */
export const uniqueEmail = (prefix = 'user'): string => `${prefix}-${randomBytes(6).toString('hex')}@example.com`;

/** The Origin that `app.inject` requests come from (its default Host is localhost). */
export const TEST_ORIGIN = 'http://localhost';

export interface SignedIn {
  userId: number;
  email: string;
  /** Session cookie plus what the CSRF defence requires; send with every `app.inject`. */
  headers: Record<string, string>;
  /** The raw session cookie value. */
  session: string;
}

/** Headers of a state-changing call from our own pages, for a given session cookie value. */
export function sessionHeaders(session: string): Record<string, string> {
  return { cookie: `${SESSION_COOKIE}=${session}`, origin: TEST_ORIGIN, [CSRF_HEADER]: CSRF_HEADER_VALUE };
}

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Calls below /api as `who` (signed out for null), with any further headers (Idempotency-Key...). */
export function apiCaller(t: TestApp) {
  return (who: Pick<SignedIn, 'headers'> | null, method: ApiMethod, url: string, payload?: unknown, headers = {}) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: { ...(who?.headers ?? {}), ...headers },
      payload: payload as object | undefined,
    });
}

/** Creates (or reuses) the user and a signed-in session directly in the database: no e-mail round trip. */
export async function signIn(t: TestApp, email: string = uniqueEmail()): Promise<SignedIn> {
  const db = t.db.db;
  const normalized = email.trim().toLowerCase();
  await db.insert(users).values({ email: normalized, name: normalized }).onConflictDoNothing();
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, normalized));
  const { cookie } = await createSession(db, { userId: user.id, ttlSeconds: t.config.SESSION_TTL });
  return { userId: user.id, email: normalized, headers: sessionHeaders(cookie), session: cookie };
}

export interface WorkspaceFixture {
  name?: string;
  adminUserId: number;
  status?: 'new' | 'active' | 'suspended' | 'cancelled';
  features?: string[];
  locale?: 'en_US' | 'en_GB' | 'nl_NL';
  licenseId?: number;
}

export async function createWorkspace(t: TestApp, options: WorkspaceFixture): Promise<{ id: number }> {
  return t.db.db.transaction(async (tx) => {
    const [workspace] = await tx
      .insert(workspaces)
      .values({
        name: options.name ?? `Workspace ${randomBytes(4).toString('hex')}`,
        status: options.status ?? 'active',
        locale: options.locale ?? 'nl_NL',
        licenseId: options.licenseId ?? null,
      })
      .returning({ id: workspaces.id });
    await tx.insert(memberships).values({ workspaceId: workspace.id, userId: options.adminUserId, role: 'admin' });
    await setWorkspaceFlags(tx, workspace.id, options.features ?? []);
    return { id: workspace.id };
  });
}

/** A signed-in user and a workspace of their own, which they administer. */
export async function adminWithWorkspace(
  t: TestApp,
  options: Omit<WorkspaceFixture, 'adminUserId'> = {},
): Promise<{ admin: SignedIn; workspaceId: number }> {
  const admin = await signIn(t);
  const workspace = await createWorkspace(t, { ...options, adminUserId: admin.userId });
  return { admin, workspaceId: workspace.id };
}

export async function addMember(
  t: TestApp,
  workspaceId: number,
  userId: number,
  role: 'admin' | 'member',
): Promise<void> {
  await t.db.db
    .insert(memberships)
    .values({ workspaceId, userId, role })
    .onConflictDoUpdate({ target: [memberships.workspaceId, memberships.userId], set: { role } });
}

/** Fetches a bot-check challenge and solves it with the same solver the browser uses. */
export async function solvedToken(t: TestApp, headers: Record<string, string> = {}): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/api/login/challenge', headers });
  const token = await solveChallenge(powChallengeSchema.parse(res.json()));
  if (!token) throw new Error('challenge has no solution');
  return token;
}

export interface EmailLogin {
  /** The sign-in request's token from the answer (the 'Check your email' page). */
  token: string;
  /** Value of the browser-binding cookie set by the start call. */
  device: string;
  /** The code and link the e-mail carried (read back from the outbox). */
  code: string;
  link: string;
}

/** Runs POST /api/login/email/start as a browser would and reads the message from the outbox. */
export async function startEmailLogin(
  t: TestApp,
  email: string,
  headers: Record<string, string> = {},
): Promise<EmailLogin> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login/email/start',
    // A client address of its own, so the per-address limit of one test never touches another.
    remoteAddress: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
    headers: { origin: TEST_ORIGIN, [CSRF_HEADER]: CSRF_HEADER_VALUE, ...headers },
    // The challenge from the same host as the start call: other hosts are refused.
    payload: { email, token: await solvedToken(t, headers.host ? { host: headers.host } : {}) },
  });
  if (res.statusCode !== 200) throw new Error(`start failed: ${res.statusCode} ${res.body}`);
  const device = res.cookies.find((cookie) => cookie.name === LOGIN_COOKIE)?.value;
  if (!device) throw new Error('no login cookie');
  const [mail] = await t.db.db
    .select()
    .from(outbox)
    .where(eq(outbox.to, email.toLowerCase()))
    .orderBy(desc(outbox.id))
    .limit(1);
  return { token: res.json().token, device, code: mail.code ?? '', link: mail.link ?? '' };
}
