import { eq } from 'drizzle-orm';
import type { GoogleIdentity } from '../auth/oidc';
import { auditLog, feedback, users } from '../db/schema';
import type { Executor } from './db';

/** The name and e-mail of a user, or undefined when the account is gone. */
export async function findUserContact(
  db: Executor,
  userId: number,
): Promise<{ name: string; email: string } | undefined> {
  const [user] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
  return user;
}

/**
 * The account a Google sign-in stands for: the one linked to its subject, else the one with its e-mail (linked now),
 * else a new account. An e-mail already linked to another Google subject is refused.
 */
export async function findOrLinkGoogleUser(db: Executor, identity: GoogleIdentity) {
  const [bySubject] = await db.select().from(users).where(eq(users.googleSubject, identity.sub));
  if (bySubject) return bySubject;
  const [byEmail] = await db.select().from(users).where(eq(users.email, identity.email));
  if (byEmail?.googleSubject) throw new Error('e-mail already linked to another Google account');
  if (byEmail) {
    const [linked] = await db
      .update(users)
      .set({ googleSubject: identity.sub })
      .where(eq(users.id, byEmail.id))
      .returning();
    return linked;
  }
  const [created] = await db
    .insert(users)
    .values({ email: identity.email, name: identity.name?.trim() || identity.email, googleSubject: identity.sub })
    .returning();
  return created;
}

/** Writes a line of the audit log (product staff's actions on other accounts). */
export async function recordAudit(db: Executor, entry: typeof auditLog.$inferInsert): Promise<void> {
  await db.insert(auditLog).values(entry);
}

/** Stores a user's feedback message; answers its id. */
export async function saveFeedback(db: Executor, row: typeof feedback.$inferInsert): Promise<number> {
  const [saved] = await db.insert(feedback).values(row).returning({ id: feedback.id });
  return saved.id;
}
