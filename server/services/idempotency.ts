import { and, eq, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '../../src/contracts/common';
import { sha256 } from '../auth/crypto';
import type { Database } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { badRequest, HttpError } from '../http/errors';
import type { Transaction } from './db';

/** How long a key answers repeats: far beyond any retry, short enough to keep the table small. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
export const INVALID_IDEMPOTENCY_KEY = `Invalid ${IDEMPOTENCY_HEADER} header`;
export const IDEMPOTENCY_KEY_REUSED = `This ${IDEMPOTENCY_HEADER} was already used for another request`;
/** Set on an answer that repeats the first one. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** What a create answers: kept as it is for the repeats of the same call. */
export interface Answer {
  statusCode: number;
  body: unknown;
}

/** Marks a transaction that lost the race for its key to a concurrent twin: rolled back, then replayed. */
class KeyTaken extends Error {}

/**
 * Runs a create or save as one transaction. With an `Idempotency-Key` header, the transaction first claims the
 * key for the user (a concurrent twin waits on it), then stores the answer next to the object, so a key is kept
 * exactly when its object is; a repeat of the call gets that first answer back instead of making a second
 * object. The same key on another call (method, path or body) is a 422. A failed call keeps nothing: its retry
 * runs again.
 */
export async function idempotent(
  db: Database,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  run: (tx: Transaction) => Promise<Answer>,
): Promise<FastifyReply> {
  const key = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
  if (key === undefined) {
    const answer = await db.transaction(run);
    return reply.code(answer.statusCode).send(answer.body);
  }
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) throw badRequest(INVALID_IDEMPOTENCY_KEY);
  const requestHash = sha256(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`);

  const replay = async (): Promise<FastifyReply | null> => {
    const [stored] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    if (!stored) return null;
    if (stored.requestHash !== requestHash) throw new HttpError(422, IDEMPOTENCY_KEY_REUSED);
    return reply.header(REPLAYED_HEADER, 'true').code(stored.statusCode).send(stored.response);
  };

  await db
    .delete(idempotencyKeys)
    .where(
      and(eq(idempotencyKeys.userId, userId), lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS))),
    );
  const earlier = await replay();
  if (earlier) return earlier;
  try {
    const answer = await db.transaction(async (tx) => {
      const claimed = await tx
        .insert(idempotencyKeys)
        .values({ userId, key, requestHash, statusCode: 0, response: {} })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (claimed.length === 0) throw new KeyTaken();
      const result = await run(tx);
      await tx
        .update(idempotencyKeys)
        .set({ statusCode: result.statusCode, response: result.body })
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      return result;
    });
    return reply.code(answer.statusCode).send(answer.body);
  } catch (error) {
    if (!(error instanceof KeyTaken)) throw error;
    const twin = await replay();
    if (twin) return twin;
    throw error;
  }
}
