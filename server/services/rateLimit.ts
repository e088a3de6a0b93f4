import { and, count, eq, gt, lt } from 'drizzle-orm';
import { rateLimitHits } from '../db/schema';
import { HttpError } from '../http/errors';
import type { Executor } from './db';

export const TOO_MANY = 'Too many attempts';

export interface Limit {
  key: string;
  max: number;
}

/**
 * Counts one attempt against each limit (a sliding window kept in the database, so every server
 * process shares it) and throws 429 when any of them is already used up; a refused attempt is not
 * counted, so waiting out the window always helps.
 */
export async function consumeRateLimits(db: Executor, limits: Limit[], windowSeconds: number): Promise<void> {
  const since = new Date(Date.now() - windowSeconds * 1000);
  // Hits older than the window count for nothing: the table stays as small as the recent traffic.
  await db.delete(rateLimitHits).where(lt(rateLimitHits.createdAt, since));
  for (const limit of limits) {
    const [row] = await db
      .select({ hits: count() })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.key, limit.key), gt(rateLimitHits.createdAt, since)));
    if (Number(row.hits) >= limit.max) throw new HttpError(429, TOO_MANY);
  }
  await db.insert(rateLimitHits).values(limits.map((limit) => ({ key: limit.key })));
}
