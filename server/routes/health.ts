import type { FastifyPluginAsync } from 'fastify';
import { pingDatabase } from '../db/client';

/** GET /api/health: 200 when the process and its database answer, 503 otherwise. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/health', async (_request, reply) => {
    try {
      await pingDatabase(app.db.db);
      return { status: 'ok', database: app.db.kind };
    } catch (error) {
      app.log.error({ err: error }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable', error: 'Database unavailable' });
    }
  });
};
