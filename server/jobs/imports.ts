import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { importKlaviyo } from '../integrations/imports';
import type { Executor } from '../services/db';
import { findIntegration, openCredentials } from '../services/integrations';
import { enqueueProjectionBuild } from './projections';
import { type Job, enqueue } from './queue';
import type { JobHandler } from './worker';

export const IMPORT_KLAVIYO = 'integrations.klaviyo-import';

const importPayload = z.object({ workspaceId: z.number().int(), integrationId: z.number().int() });

/**
 * Queues the import that one Klaviyo connect asks for. Pass the connect's transaction: the job exists exactly when
 * the saved key does, and a connect replayed by its Idempotency-Key queues nothing more. The key is new for each
 * connect, so every connect imports once. The payload names the integration only: the API key stays sealed in its
 * row and is opened when the job runs, never copied into the jobs table.
 */
export async function enqueueKlaviyoImport(db: Executor, workspaceId: number, integrationId: number): Promise<void> {
  await enqueue(db, {
    kind: IMPORT_KLAVIYO,
    key: `${workspaceId}:${integrationId}:${randomUUID()}`,
    payload: { workspaceId, integrationId },
  });
}

/**
 * Runs a queued import with the credentials saved now (a later connect's key wins). A failure (provider down,
 * refused) throws, so the queue tries again after its back-off; the import replaces the integration's earlier rows,
 * so a repeat after a crash does not count twice.
 */
export function integrationImportHandlers(app: FastifyInstance): Record<string, JobHandler> {
  return {
    [IMPORT_KLAVIYO]: async (job: Job) => {
      const { workspaceId, integrationId } = importPayload.parse(job.payload);
      const db = app.db.db;
      const integration = await findIntegration(db, workspaceId, { id: integrationId });
      // Removed since the connect: nothing of it is imported any more.
      if (integration?.type !== 'klaviyo') return;
      const credentials = await openCredentials<{ apiKey: string }>(db, app.secrets, workspaceId, integration);
      if (!credentials) return;
      await importKlaviyo({ config: app.config }, app.config.dataDir, workspaceId, credentials.apiKey);
      // The dashboards' column sets of the old version, built now for the new one rather than on their first open.
      await enqueueProjectionBuild(db, workspaceId, `import-${job.id}`);
    },
  };
}
