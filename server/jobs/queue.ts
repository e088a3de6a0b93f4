import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { jobs } from '../db/schema';
import type { Executor } from '../services/db';

export type Job = typeof jobs.$inferSelect;

/** Retries wait BACKOFF_BASE_MS × 4^(attempt-1): 5 s, 20 s, 80 s, … */
export const BACKOFF_BASE_MS = 5_000;

/**
 * Queues a job unless one of the same kind and key exists (done or not): a key that names the work (a rule and a
 * day) makes the job happen once however many processes or saves ask for it. Pass the transaction of the change
 * that asks for it, so the job exists exactly when the change does.
 */
export async function enqueue(
  db: Executor,
  job: { kind: string; key: string; payload?: Record<string, unknown>; runAt?: Date; maxAttempts?: number },
): Promise<boolean> {
  const inserted = await db
    .insert(jobs)
    .values({
      kind: job.kind,
      key: job.key,
      payload: job.payload ?? {},
      runAt: job.runAt ?? new Date(),
      maxAttempts: job.maxAttempts ?? 5,
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return inserted.length > 0;
}

/** A name for this process's claims, shown in `locked_by`. */
export const workerName = (): string => `${process.pid}-${randomBytes(4).toString('hex')}`;

/**
 * Claims the next due job of `kinds`: a queued one whose time has come, or a running one whose lease expired (its
 * process died). SKIP LOCKED lets concurrent claimers pass over each other's rows instead of waiting or taking
 * the same job; the claim sets a new lease and counts the attempt in the same statement's transaction.
 */
export async function claim(db: Executor, worker: string, kinds: string[], leaseMs: number): Promise<Job | null> {
  if (kinds.length === 0) return null;
  const kindList = sql.join(
    kinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  const result = await db.execute<{ id: number }>(sql`
    UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = ${worker},
      lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE id = (
      SELECT id FROM jobs
      WHERE kind IN (${kindList}) AND attempts < max_attempts AND run_at <= now()
        AND (status = 'queued' OR (status = 'running' AND lease_until < now()))
      ORDER BY run_at, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`);
  const id = (result as unknown as { rows: { id: number }[] }).rows[0]?.id;
  if (id === undefined) return null;
  const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
  return job ?? null;
}

/** Marks a claimed job done, if this worker still holds it (a lease taken over by another is theirs). */
export async function complete(db: Executor, job: Job, worker: string): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'done', finishedAt: new Date(), leaseUntil: null })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, worker)));
}

/** Records a failure: queued again after a back-off, or failed for good after its last attempt. */
export async function fail(db: Executor, job: Job, worker: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const last = job.attempts >= job.maxAttempts;
  await db
    .update(jobs)
    .set({
      status: last ? 'failed' : 'queued',
      lastError: message.slice(0, 2000),
      leaseUntil: null,
      runAt: new Date(Date.now() + BACKOFF_BASE_MS * 4 ** (job.attempts - 1)),
      finishedAt: last ? new Date() : null,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, worker)));
}

/** Keeps a claim alive while its work runs; a process that stops renewing loses the job when the lease ends. */
export async function extendLease(db: Executor, job: Job, worker: string, leaseMs: number): Promise<void> {
  await db
    .update(jobs)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, worker), eq(jobs.status, 'running')));
}
