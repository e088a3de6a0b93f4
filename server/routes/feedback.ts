import type { FastifyPluginAsync } from 'fastify';
import { feedbackBodySchema } from '../../src/contracts/feedback';
import { requireMember, requireUser } from '../auth/access';
import { unauthorized } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { idempotent } from '../services/idempotency';
import { findUserContact, saveFeedback } from '../services/users';

/**
 * Feedback from the sidebar (spec 1 §7): stored with the sender's name and e-mail, and logged so the log
 * pipeline can hand it to the feedback tool.
 */
export const feedbackRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;

  app.post('/feedback', { schema: { body: feedbackBodySchema } }, async (request, reply) => {
    const { userId } = await requireUser(request);
    const { message, workspaceId } = request.body;
    // Only a workspace the sender belongs to is recorded: anything else answers 404 like every workspace route.
    if (workspaceId !== undefined) await requireMember(request, workspaceId);
    const sender = await findUserContact(db, userId);
    if (!sender) throw unauthorized();
    return idempotent(db, request, reply, userId, async (tx) => {
      const feedbackId = await saveFeedback(tx, {
        userId,
        name: sender.name,
        email: sender.email,
        message,
        workspaceId: workspaceId ?? null,
      });
      request.log.info(
        {
          feedbackId,
          userId,
          name: sender.name,
          email: sender.email,
          workspaceId: workspaceId ?? null,
          message,
        },
        'feedback received',
      );
      return { statusCode: 201, body: { ok: true } };
    });
  });
};
