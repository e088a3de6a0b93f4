import type { FastifyPluginAsync } from 'fastify';
import {
  ALERT_RULE_NOT_FOUND,
  alertRuleInputSchema,
  alertRuleParamsSchema,
  evaluateAlertsBodySchema,
  WEBHOOK_SECRET_EXISTS,
  WEBHOOK_URL_NOT_PUBLIC,
  type AlertRuleInput,
} from '../../src/contracts/alerting';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import { requireAdmin, requireMember } from '../auth/access';
import { badRequest, conflict, notFound } from '../http/errors';
import { checkOutboundHost, OutboundError } from '../http/safeFetch';
import type { ZodTypeProvider } from '../http/zod';
import { enqueueRuleDay } from '../jobs/alerts';
import { AlertEvaluator, type EvaluatedRule, historyDays, lastCompleteDay } from '../services/alerting/evaluate';
import {
  checkAgainstSchema,
  deleteAlertRule,
  findAlertRule,
  listAlertRules,
  saveAlertRule,
  userEmail,
} from '../services/alerting/rules';
import { evaluateWorkspaceDay } from '../services/alerting/schedule';
import { listViolations } from '../services/alerting/violations';
import { listDeliveries, makeWebhookSecret, webhookSecretStatus } from '../services/alerting/webhooks';
import { idempotent } from '../services/idempotency';

/** The answer of the results and preview calls: the rule's last 30 days with what they tested. */
async function historyOf(evaluator: AlertEvaluator, workspaceId: number, rule: EvaluatedRule) {
  const results = await evaluator.evaluate(workspaceId, rule, historyDays());
  return { data: { results, conditions: rule.conditions, dimension: rule.dimension } };
}

/**
 * Refuses, when saved, a webhook URL that names or resolves to an address deliveries may not call, or whose name
 * the resolver does not answer for in time (the check is bounded, so a slow resolver cannot hang the save).
 */
async function checkWebhookUrl(input: AlertRuleInput, allowedHosts: readonly string[]): Promise<void> {
  if (!input.webhookUrl) return;
  try {
    await checkOutboundHost(input.webhookUrl, allowedHosts);
  } catch (error) {
    if (error instanceof OutboundError) throw badRequest(WEBHOOK_URL_NOT_PUBLIC);
    throw error;
  }
}

/**
 * Alerting (spec 3 §7). Every member may view, create, edit and remove the workspace's rules: the spec leaves
 * roles open, and a rule only notifies the recipients it names (README, security table).
 * Long because a plugin registers all its routes in one place; each handler stays short and calls services.
 */
export const alertingRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;
  const evaluator = new AlertEvaluator(db, app.config.dataDir);
  app.addHook('onClose', () => evaluator.close());

  app.get(
    '/workspaces/:workspaceId/alerting/rules',
    { schema: { params: workspaceIdParamsSchema } },
    async (request) => {
      await requireMember(request, request.params.workspaceId);
      return { data: await listAlertRules(db, request.params.workspaceId) };
    },
  );

  app.get(
    '/workspaces/:workspaceId/alerting/rules/:id/results',
    { schema: { params: alertRuleParamsSchema } },
    async (request) => {
      const { workspaceId, id } = request.params;
      await requireMember(request, workspaceId);
      const rule = await findAlertRule(db, workspaceId, id);
      if (!rule) throw notFound(ALERT_RULE_NOT_FOUND);
      return historyOf(evaluator, workspaceId, rule);
    },
  );

  app.put(
    '/workspaces/:workspaceId/alerting/rules/preview',
    { schema: { params: workspaceIdParamsSchema, body: alertRuleInputSchema } },
    async (request) => {
      const { workspaceId } = request.params;
      await requireMember(request, workspaceId);
      await checkAgainstSchema(db, workspaceId, request.body);
      return historyOf(evaluator, workspaceId, request.body);
    },
  );

  app.put(
    '/workspaces/:workspaceId/alerting/rules/:id',
    { schema: { params: alertRuleParamsSchema, body: alertRuleInputSchema } },
    async (request, reply) => {
      const { workspaceId, id } = request.params;
      const { userId } = await requireMember(request, workspaceId);
      await checkAgainstSchema(db, workspaceId, request.body);
      await checkWebhookUrl(request.body, app.config.OUTBOUND_ALLOWED_HOSTS);
      const recipients = request.body.recipients ?? [await userEmail(db, userId)];
      return idempotent(app.db.db, request, reply, userId, async (tx) => {
        const { rule, created } = await saveAlertRule(tx, workspaceId, id, userId, { ...request.body, recipients });
        // Evaluated again after each save: the last complete day, unless that rule-day was already evaluated.
        if (rule.enabled) await enqueueRuleDay(tx, rule.id, lastCompleteDay());
        return { statusCode: created ? 201 : 200, body: { data: rule } };
      });
    },
  );

  app.delete(
    '/workspaces/:workspaceId/alerting/rules/:id',
    { schema: { params: alertRuleParamsSchema } },
    async (request) => {
      const { workspaceId, id } = request.params;
      await requireMember(request, workspaceId);
      if (!(await deleteAlertRule(db, workspaceId, id))) throw notFound(ALERT_RULE_NOT_FOUND);
      return { ok: true as const };
    },
  );

  app.get(
    '/workspaces/:workspaceId/alerting/violations',
    { schema: { params: workspaceIdParamsSchema } },
    async (request) => {
      await requireMember(request, request.params.workspaceId);
      return { data: await listViolations(db, request.params.workspaceId) };
    },
  );

  app.get(
    '/workspaces/:workspaceId/alerting/rules/:id/deliveries',
    { schema: { params: alertRuleParamsSchema } },
    async (request) => {
      const { workspaceId, id } = request.params;
      await requireMember(request, workspaceId);
      if (!(await findAlertRule(db, workspaceId, id))) throw notFound(ALERT_RULE_NOT_FOUND);
      return { data: await listDeliveries(db, workspaceId, id) };
    },
  );

  // The workspace's webhook signing secret: members see whether one exists; an admin makes it, answered once
  // (stored sealed, never readable again; not kept by the idempotency store either), or rotates it.
  app.get(
    '/workspaces/:workspaceId/alerting/webhook-secret',
    { schema: { params: workspaceIdParamsSchema } },
    async (request) => {
      await requireMember(request, request.params.workspaceId);
      return { data: await webhookSecretStatus(db, request.params.workspaceId) };
    },
  );

  for (const rotate of [false, true]) {
    app.post(
      `/workspaces/:workspaceId/alerting/webhook-secret${rotate ? '/rotate' : ''}`,
      { schema: { params: workspaceIdParamsSchema } },
      async (request, reply) => {
        await requireAdmin(request, request.params.workspaceId);
        const made = await makeWebhookSecret(app, request.params.workspaceId, rotate);
        if (!made) throw conflict(WEBHOOK_SECRET_EXISTS);
        return reply.code(201).send({ data: made });
      },
    );
  }

  // Development and tests only (end-to-end tests, trying a rule by hand): evaluate the workspace's enabled rules
  // for one day now, as the daily job would. Never registered in production.
  if (app.config.NODE_ENV === 'development' || app.config.NODE_ENV === 'test') {
    app.post(
      '/workspaces/:workspaceId/alerting/evaluate',
      { schema: { params: workspaceIdParamsSchema, body: evaluateAlertsBodySchema } },
      async (request) => {
        const { workspaceId } = request.params;
        await requireMember(request, workspaceId);
        const day = request.body.day ?? lastCompleteDay();
        return { data: { day, ...(await evaluateWorkspaceDay(app, evaluator, workspaceId, day)) } };
      },
    );
  }
};
