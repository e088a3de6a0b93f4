import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import {
  newAlertRuleId,
  WEBHOOK_SECRET_EXISTS,
  WEBHOOK_URL_NOT_PUBLIC,
  webhookDeliveryListResponseSchema,
  webhookSecretResponseSchema,
} from '../../src/contracts/alerting';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { generateWorkspaceDatasets, todayUtc } from '../datasets/generate';
import { alertRules, jobs, webhookSecrets } from '../db/schema';
import { alertJobHandlers } from '../jobs/alerts';
import { JobWorker } from '../jobs/worker';
import { AlertEvaluator, lastCompleteDay } from '../services/alerting/evaluate';
import { DELIVER_WEBHOOK } from '../services/alerting/webhooks';
import { addMember, createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/testApp';

interface Received {
  signature: string | undefined;
  body: string;
}

let t: TestApp;
let receiver: http.Server;
let receiverUrl: string;
let evaluator: AlertEvaluator;
let worker: JobWorker;
let admin: SignedIn;
let member: SignedIn;
let workspaceId: number;
/** The statuses the receiver answers, in turn (200 once they run out), and what it received. */
let answers: number[] = [];
const received: Received[] = [];

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const signature = request.headers['x-openrate-signature'];
      received.push({
        signature: Array.isArray(signature) ? signature[0] : signature,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(answers.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // The receiver is on loopback: exempt for this test's app only, as an operator would exempt a known host.
  t = await createTestApp({ OUTBOUND_ALLOWED_HOSTS: [new URL(receiverUrl).host] });
  [admin, member] = [await signIn(t), await signIn(t)];
  workspaceId = (await createWorkspace(t, { adminUserId: admin.userId })).id;
  await addMember(t, workspaceId, member.userId, 'member');
  // Enough rows that yesterday has sends, so a rule "sent >= 0" opens a violation on it.
  await generateWorkspaceDatasets(t.config.dataDir, workspaceId, { rows: 20000, seed: 3, endDate: todayUtc() });
  evaluator = new AlertEvaluator(t.db.db, t.config.dataDir);
  worker = new JobWorker({ db: t.db.db, log: t.app.log, handlers: alertJobHandlers(t.app, evaluator) });
}, START_TIMEOUT_MS);

afterAll(async () => {
  await evaluator?.close();
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
}, START_TIMEOUT_MS);

const url = (rest: string) => `/api/workspaces/${workspaceId}${rest}`;
const saveRule = (id: string, webhookUrl: string) =>
  t.app.inject({
    method: 'PUT',
    url: url(`/alerting/rules/${id}`),
    headers: admin.headers,
    payload: { title: 'Sends happened', conditions: [{ member: 'sent', operator: 'gte', values: ['0'] }], webhookUrl },
  });
const deliveries = async (id: string) =>
  webhookDeliveryListResponseSchema.parse(
    (await t.app.inject({ url: url(`/alerting/rules/${id}/deliveries`), headers: member.headers })).json(),
  ).data;

describe('the signing secret', () => {
  it('is made once by an admin, answered once, stored sealed, and rotated on request', async () => {
    const secretUrl = url('/alerting/webhook-secret');
    expect((await t.app.inject({ url: secretUrl, headers: member.headers })).json().data).toEqual({
      configured: false,
      createdAt: null,
    });
    expect((await t.app.inject({ method: 'POST', url: secretUrl, headers: member.headers })).statusCode).toBe(403);
    const made = await t.app.inject({ method: 'POST', url: secretUrl, headers: admin.headers });
    expect(made.statusCode).toBe(201);
    const { secret } = webhookSecretResponseSchema.parse(made.json()).data;
    const again = await t.app.inject({ method: 'POST', url: secretUrl, headers: admin.headers });
    expect([again.statusCode, again.json().error, again.body.includes(secret)]).toEqual([
      409,
      WEBHOOK_SECRET_EXISTS,
      false,
    ]);
    const status = await t.app.inject({ url: secretUrl, headers: member.headers });
    expect([status.json().data.configured, status.body.includes(secret)]).toEqual([true, false]);
    const [row] = await t.db.db.select().from(webhookSecrets).where(eq(webhookSecrets.workspaceId, workspaceId));
    expect(row.sealed.startsWith('v1:')).toBe(true);
    expect(row.sealed.includes(secret) || row.sealed.includes(secret.slice(6))).toBe(false);
    expect(t.app.secrets.open(row.sealed, `webhook-secret:${workspaceId}`)).toBe(secret);

    const rotated = await t.app.inject({ method: 'POST', url: `${secretUrl}/rotate`, headers: admin.headers });
    expect(rotated.statusCode).toBe(201);
    expect(webhookSecretResponseSchema.parse(rotated.json()).data.secret).not.toBe(secret);
  });
});

describe('delivery', () => {
  it('POSTs the opened violation signed with the workspace secret, retrying a 500 through the job queue', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: url('/alerting/webhook-secret/rotate'),
      headers: admin.headers,
    });
    const { secret } = webhookSecretResponseSchema.parse(made.json()).data;
    const id = newAlertRuleId();
    answers = [500, 500];
    received.length = 0;
    // Saving queues yesterday's evaluation; the worker runs it, the violation opens and queues the webhook.
    expect((await saveRule(id, receiverUrl)).statusCode).toBe(201);
    await worker.drain();
    expect(received).toHaveLength(1);
    expect(await deliveries(id)).toEqual([
      expect.objectContaining({
        status: 'pending',
        attempts: 1,
        responseStatus: 500,
        error: 'The receiver answered 500',
      }),
    ]);

    // The back-off has passed (as after a restart: the job is in the database), twice.
    const key = eq(jobs.key, `${id}:${(await deliveries(id))[0].day}`);
    for (const attempts of [2, 3]) {
      await t.db.db
        .update(jobs)
        .set({ runAt: new Date() })
        .where(and(eq(jobs.kind, DELIVER_WEBHOOK), key));
      await worker.drain();
      expect(received).toHaveLength(attempts);
    }
    expect(await deliveries(id)).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 3, responseStatus: 200, error: null, url: receiverUrl }),
    ]);

    // The receiver verifies each call: HMAC-SHA256 of the raw body with the secret it was shown once.
    for (const call of received) {
      expect(call.signature).toBe(`sha256=${createHmac('sha256', secret).update(call.body).digest('hex')}`);
    }
    expect(JSON.parse(received[0].body)).toMatchObject({
      event: 'alert.violation.opened',
      workspaceId,
      rule: { id, title: 'Sends happened' },
    });
    // Done: nothing more is sent.
    await worker.drain();
    expect(received).toHaveLength(3);
  });

  it('refuses a URL that turned private after saving at each of its 4 attempts, then marks it failed', async () => {
    const id = newAlertRuleId();
    // Saved while public; the address changes before the call (as a rebinding name would): each call checks again.
    // The evaluation that saving queued runs in the drain below, after the change.
    expect((await saveRule(id, 'https://93.184.216.34/hook')).statusCode).toBe(201);
    await t.db.db.update(alertRules).set({ webhookUrl: 'http://127.0.0.1:9/hook' }).where(eq(alertRules.id, id));
    received.length = 0;
    await worker.drain();
    const key = and(eq(jobs.kind, DELIVER_WEBHOOK), eq(jobs.key, `${id}:${lastCompleteDay()}`));
    for (let attempt = 2; attempt <= 4; attempt += 1) {
      await t.db.db.update(jobs).set({ runAt: new Date() }).where(key);
      await worker.drain();
    }
    expect(await deliveries(id)).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 4, error: '127.0.0.1 is not a public address' }),
    ]);
    const [job] = await t.db.db.select().from(jobs).where(key);
    expect([job.status, job.attempts]).toEqual(['failed', 4]);
    expect(received).toHaveLength(0);
  });

  it('answers 404 for the log of a rule of another workspace', async () => {
    const outsider = await signIn(t);
    const other = (await createWorkspace(t, { adminUserId: outsider.userId })).id;
    const id = newAlertRuleId();
    expect((await saveRule(id, '')).statusCode).toBe(201);
    const response = await t.app.inject({
      url: `/api/workspaces/${other}/alerting/rules/${id}/deliveries`,
      headers: outsider.headers,
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('SSRF refusals at save time', () => {
  it.each([
    ['a decimal IP', 'http://2130706433/hook'],
    ['an IPv6-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
    ['a name resolving to 127.0.0.1', 'http://localhost:8080/hook'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a private network', 'https://10.1.2.3/hook'],
  ])('refuses %s with a 400', async (_, webhookUrl) => {
    const response = await saveRule(newAlertRuleId(), webhookUrl);
    expect([response.statusCode, response.json().error]).toEqual([400, WEBHOOK_URL_NOT_PUBLIC]);
  });

  it('accepts a public address', async () => {
    expect((await saveRule(newAlertRuleId(), 'https://93.184.216.34/hook')).statusCode).toBe(201);
  });

  // A resolver that never answers must not hang the save: the URL could not be checked, so it is refused.
  it('refuses, rather than waits forever, when the host name does not resolve in time', async () => {
    const lookup = jest.spyOn(dns.promises, 'lookup').mockImplementation(() => new Promise(() => undefined));
    try {
      const response = await saveRule(newAlertRuleId(), 'https://hooks.example.com/hook');
      expect(lookup).toHaveBeenCalledWith('hooks.example.com', { all: true });
      expect([response.statusCode, response.json().error]).toEqual([400, WEBHOOK_URL_NOT_PUBLIC]);
    } finally {
      lookup.mockRestore();
    }
  });
});
