import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { loginTokens, users } from '../db/schema';
import type { Executor, Transaction } from './db';

/** How long a sign-in link and its code work. */
export const LINK_TTL_MS = 15 * 60 * 1000;

/**
 * Whether a binding cookie is one we issued to this browser for this address. A made-up cookie is not:
 * counting it as a browser would make every request a new browser with a fresh allowance.
 */
export async function issuedFor(db: Executor, email: string, deviceHash: string): Promise<boolean> {
  const [known] = await db
    .select({ id: loginTokens.id })
    .from(loginTokens)
    .where(and(eq(loginTokens.email, email), eq(loginTokens.deviceHash, deviceHash)))
    .limit(1);
  return known !== undefined;
}

/** Finds or creates the account of a verified e-mail address (a first sign-in registers it). */
export async function userForEmail(db: Executor, email: string) {
  await db.insert(users).values({ email, name: email }).onConflictDoNothing();
  const [user] = await db
    .select({ id: users.id, mfaSecret: users.mfaSecret })
    .from(users)
    .where(eq(users.email, email));
  return user;
}

export interface NewLoginToken {
  email: string;
  tokenHash: string;
  codeHash: string;
  deviceHash: string;
  expiresAt: Date;
}

/**
 * Stores a new sign-in link, dropping long-expired ones. A newer request supersedes the earlier links and codes of
 * the same browser (`earlierDeviceHash`); another browser's request (perhaps a stranger's) leaves them alone: it
 * cannot void the link the owner waits for. `send` mails the link in the same transaction.
 */
export async function storeLoginToken(
  db: Database,
  token: NewLoginToken,
  earlierDeviceHash: string | null,
  send: (tx: Transaction) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(loginTokens).where(lt(loginTokens.expiresAt, new Date(Date.now() - LINK_TTL_MS)));
    if (earlierDeviceHash) {
      await tx
        .update(loginTokens)
        .set({ consumedAt: new Date() })
        .where(and(eq(loginTokens.deviceHash, earlierDeviceHash), isNull(loginTokens.consumedAt)));
    }
    await tx.insert(loginTokens).values(token);
    await send(tx);
  });
}

export async function findLoginToken(db: Executor, tokenHash: string) {
  const [login] = await db.select().from(loginTokens).where(eq(loginTokens.tokenHash, tokenHash));
  return login ?? null;
}

/**
 * Uses the sign-in link once, even when two requests race (only one of them flips consumed_at), and signs its
 * account in within the same transaction; null when it was used meanwhile.
 */
export async function consumeLoginToken<T>(
  db: Database,
  login: { id: number; email: string },
  signIn: (tx: Transaction, user: Awaited<ReturnType<typeof userForEmail>>) => Promise<T>,
): Promise<T | null> {
  return db.transaction(async (tx) => {
    const used = await tx
      .update(loginTokens)
      .set({ consumedAt: new Date() })
      .where(and(eq(loginTokens.id, login.id), isNull(loginTokens.consumedAt)))
      .returning({ id: loginTokens.id });
    if (used.length === 0) return null;
    return signIn(tx, await userForEmail(tx, login.email));
  });
}

/** The account's two-factor secret, for the second sign-in step. */
export async function findMfaUser(db: Executor, userId: number) {
  const [user] = await db.select({ id: users.id, mfaSecret: users.mfaSecret }).from(users).where(eq(users.id, userId));
  return user ?? null;
}
