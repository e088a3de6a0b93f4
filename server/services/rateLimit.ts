import { and, count, gt, inArray, lt, sql } from 'drizzle-orm';
import { rateLimitHits } from '../db/schema';
import { HttpError } from '../http/errors';
import type { Executor } from './db';

export const TOO_MANY = 'Too many attempts';

export interface Limit {
  key: string;
  max: number;
}

/**
 * A cap on every attempt at one account (an e-mail address, or a user for the second factor), from any
 * browser and any client address. Reaching it never shuts the account: that would let any stranger lock
 * its owner out. Past it, each browser (`bindingKey`) waits between two of its attempts, twice as long
 * for every attempt over the cap, up to `maxSeconds`; a browser that has not tried yet goes straight in.
 */
export interface Backoff {
  key: string;
  cap: number;
  bindingKey: string;
  maxSeconds: number;
}

/** 429 `Too many attempts`, with the seconds after which the same attempt may be admitted. */
export class TooManyAttempts extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, TOO_MANY);
  }
}

/** Whole seconds to wait, at least 1: a client told to retry after 0 would come straight back. */
const retryAfter = (seconds: number) => Math.max(1, Math.ceil(seconds));

/**
 * Counts one attempt against each limit (a sliding window kept in the database, so every server
 * process shares it) and throws TooManyAttempts when any of them is used up or the back-off says
 * wait; a refused attempt is not counted, so waiting always helps.
 *
 * Exact under concurrency: attempts that share a key queue on a transaction-scoped advisory lock, and
 * each counts only once the previous one has committed its hit (25 parallel attempts against a limit
 * of 5 admit exactly 5, on PostgreSQL as on PGlite).
 */
export async function consumeRateLimits(
  db: Executor,
  limits: Limit[],
  windowSeconds: number,
  backoff?: Backoff,
): Promise<void> {
  // The database's clock for every hit and every comparison: server processes' clocks may differ.
  const since = sql`now() - ${windowSeconds} * interval '1 second'`;
  // Hits older than the window count for nothing: the table stays as small as the recent traffic.
  await db.delete(rateLimitHits).where(lt(rateLimitHits.createdAt, since));
  const keys = [
    ...new Set([...limits.map((limit) => limit.key), ...(backoff ? [backoff.key, backoff.bindingKey] : [])]),
  ];
  await db.transaction(async (tx) => {
    // Locks taken in the order of their ids, so two attempts sharing several keys cannot deadlock. The
    // count below is a new statement, hence a new snapshot that sees the hit of whoever held the lock.
    const ids = sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    );
    await tx.execute(
      sql`select pg_advisory_xact_lock(id) from (select hashtextextended(key, 0) as id from unnest(array[${ids}]::text[]) as key order by id) as locks`,
    );
    const rows = await tx
      .select({
        key: rateLimitHits.key,
        hits: count(),
        // Seconds until the oldest hit leaves the window, and since the newest one.
        freeIn: sql<number>`extract(epoch from min(${rateLimitHits.createdAt}) - (${since}))`.mapWith(Number),
        sinceLast: sql<number>`extract(epoch from now() - max(${rateLimitHits.createdAt}))`.mapWith(Number),
      })
      .from(rateLimitHits)
      .where(and(inArray(rateLimitHits.key, keys), gt(rateLimitHits.createdAt, since)))
      .groupBy(rateLimitHits.key);
    const byKey = new Map(rows.map((row) => [row.key, row]));
    for (const limit of limits) {
      const row = byKey.get(limit.key);
      if (row && row.hits >= limit.max) throw new TooManyAttempts(retryAfter(row.freeIn));
    }
    if (backoff) {
      const total = byKey.get(backoff.key)?.hits ?? 0;
      const last = byKey.get(backoff.bindingKey);
      if (total >= backoff.cap && last) {
        // Never longer than the window: an older hit is deleted, and with it the memory of the wait.
        const wait = Math.min(backoff.maxSeconds, windowSeconds, 2 ** Math.min(total - backoff.cap, 30));
        if (last.sinceLast < wait) throw new TooManyAttempts(retryAfter(wait - last.sinceLast));
      }
    }
    await tx.insert(rateLimitHits).values(keys.map((key) => ({ key })));
  });
}
