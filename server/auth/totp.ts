import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { users } from '../db/schema';
import type { Executor } from '../services/db';

const PERIOD = 30;

/** RFC 6238 as authenticator apps expect it: SHA1, 6 digits, 30 s. */
export function totpFor(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: 'Openrate',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The time step a code belongs to, or null when it is not valid now (one step of clock drift allowed). */
export function matchingStep(secret: string, token: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpFor(secret, '').validate({ token, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / PERIOD) + delta;
}

/**
 * Accepts a code for the user's enabled secret at most once: the step is recorded atomically, and a
 * code of the same or an earlier step (a replay) is refused.
 */
export async function acceptTotp(db: Executor, userId: number, secret: string, token: string): Promise<boolean> {
  const step = matchingStep(secret, token);
  if (step === null) return false;
  const updated = await db
    .update(users)
    .set({ mfaLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.mfaLastStep), lt(users.mfaLastStep, step))))
    .returning({ id: users.id });
  return updated.length === 1;
}
