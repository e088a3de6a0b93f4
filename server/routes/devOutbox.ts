import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { outbox } from '../db/schema';
import type { ZodTypeProvider } from '../http/zod';

const querySchema = z.object({ to: z.string().trim().toLowerCase().max(254).optional() });

/**
 * GET /api/dev/outbox: mail kept locally, newest first; registered only for a server started for development
 * or tests (NODE_ENV says so), never because the variable is missing.
 */
export const devOutboxRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  if (app.config.NODE_ENV !== 'development' && app.config.NODE_ENV !== 'test') return;
  app.get('/dev/outbox', { schema: { querystring: querySchema } }, async (request) => {
    const rows = await app.db.db
      .select()
      .from(outbox)
      .where(request.query.to ? eq(outbox.to, request.query.to) : undefined)
      .orderBy(desc(outbox.id))
      .limit(100);
    return {
      data: rows.map((row) => ({
        id: row.id,
        to: row.to,
        subject: row.subject,
        text: row.text,
        link: row.link,
        code: row.code,
        created_at: row.createdAt.toISOString(),
      })),
    };
  });
};
