import { createHmac, randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  type AlertDetailRow,
  type AlertRule,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookDelivery,
} from '../../../src/contracts/alerting';
import { webhookDeliveries, webhookSecrets } from '../../db/schema';
import { OutboundError, safeFetch } from '../../http/safeFetch';
import { enqueue } from '../../jobs/queue';
import type { Executor, Transaction } from '../db';

export const DELIVER_WEBHOOK = 'alerts.webhook';
/** The first call and 3 retries, spaced by the queue's back-off (5 s, 20 s, 80 s). */
export const WEBHOOK_MAX_ATTEMPTS = 4;
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** The log keeps the last deliveries of a rule. */
const DELIVERY_LOG_LIMIT = 50;

const secretContext = (workspaceId: number) => `webhook-secret:${workspaceId}`;

/** `sha256=<hex>`: the HMAC-SHA256 of the raw body with the workspace's secret, as the receiver recomputes it. */
export const signBody = (secret: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export async function webhookSecretStatus(db: Executor, workspaceId: number) {
  const [row] = await db
    .select({ createdAt: webhookSecrets.createdAt })
    .from(webhookSecrets)
    .where(eq(webhookSecrets.workspaceId, workspaceId));
  return { configured: row !== undefined, createdAt: row?.createdAt.toISOString() ?? null };
}

/**
 * Makes the workspace's signing secret and answers it: the only time it is readable, as it is stored sealed.
 * Without `rotate`, answers null when one exists (the first one made wins a race); with it, replaces it.
 */
export async function makeWebhookSecret(app: FastifyInstance, workspaceId: number, rotate: boolean) {
  const secret = `whsec_${randomBytes(32).toString('hex')}`;
  const values = { workspaceId, sealed: app.secrets.seal(secret, secretContext(workspaceId)), createdAt: new Date() };
  const insert = app.db.db.insert(webhookSecrets).values(values);
  const written = await (
    rotate
      ? insert.onConflictDoUpdate({ target: webhookSecrets.workspaceId, set: values })
      : insert.onConflictDoNothing()
  ).returning({ createdAt: webhookSecrets.createdAt });
  return written[0] ? { secret, createdAt: written[0].createdAt.toISOString() } : null;
}

/** The JSON a receiver gets when a rule's violation opens. */
export function webhookBody(
  rule: Pick<AlertRule, 'id' | 'title' | 'message' | 'workspaceId'>,
  day: string,
  groups: AlertDetailRow[],
  origin: string,
): string {
  return JSON.stringify({
    event: 'alert.violation.opened',
    workspaceId: rule.workspaceId,
    rule: { id: rule.id, title: rule.title, message: rule.message },
    day,
    groups: groups.filter((group) => group.result === true),
    link: `${origin}/workspaces/${rule.workspaceId}/alerting/${rule.id}`,
  });
}

/**
 * Logs and queues the webhook call of a violation that opened, in the transaction that opened it: the delivery
 * exists exactly when the violation does, and its job (one per rule and day) survives a restart.
 */
export async function queueWebhook(tx: Transaction, rule: AlertRule, day: string, body: string): Promise<void> {
  if (!rule.webhookUrl) return;
  const [delivery] = await tx
    .insert(webhookDeliveries)
    .values({ ruleId: rule.id, workspaceId: rule.workspaceId, day, url: rule.webhookUrl })
    .onConflictDoNothing()
    .returning({ id: webhookDeliveries.id });
  if (!delivery) return;
  await enqueue(tx, {
    kind: DELIVER_WEBHOOK,
    key: `${rule.id}:${day}`,
    payload: { deliveryId: delivery.id, body },
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
  });
}

/** What the log shows of a failure: the refusal's or the receiver's status, never a header or the secret. */
const failureText = (error: unknown) =>
  error instanceof OutboundError ? error.message : error instanceof Error ? error.message : 'The call failed';

/**
 * One attempt of a delivery: signs the body with the workspace's secret and POSTs it through safeFetch. A
 * non-2xx answer or a refused or failed call throws, so the queue retries it; the log records each attempt.
 */
export async function attemptWebhook(app: FastifyInstance, deliveryId: number, body: string, last: boolean) {
  const [delivery] = await app.db.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  if (!delivery) return; // The rule was removed since.
  const record = (values: Partial<typeof webhookDeliveries.$inferInsert>) =>
    app.db.db
      .update(webhookDeliveries)
      .set({ attempts: delivery.attempts + 1, modifiedAt: new Date(), ...values })
      .where(eq(webhookDeliveries.id, deliveryId));
  let responseStatus: number | null = null;
  try {
    const [row] = await app.db.db
      .select()
      .from(webhookSecrets)
      .where(eq(webhookSecrets.workspaceId, delivery.workspaceId));
    if (!row) throw new Error('The workspace has no webhook signing secret');
    const secret = app.secrets.open(row.sealed, secretContext(delivery.workspaceId));
    const response = await safeFetch(delivery.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signBody(secret, body) },
      body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      maxResponseBytes: 64 * 1024,
      allowedHosts: app.config.OUTBOUND_ALLOWED_HOSTS,
    });
    responseStatus = response.status;
    if (response.status < 200 || response.status >= 300) throw new Error(`The receiver answered ${response.status}`);
    await record({ status: 'delivered', responseStatus, error: null });
  } catch (error) {
    await record({ status: last ? 'failed' : 'pending', responseStatus, error: failureText(error).slice(0, 500) });
    throw error;
  }
}

/** A rule's delivery log, newest first. */
export async function listDeliveries(db: Executor, workspaceId: number, ruleId: string): Promise<WebhookDelivery[]> {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.ruleId, ruleId)))
    .orderBy(desc(webhookDeliveries.id))
    .limit(DELIVERY_LOG_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    ruleId: row.ruleId,
    day: row.day,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
  }));
}
