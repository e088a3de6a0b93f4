import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { datasetFile, findAvailableDataset } from '../services/datasets';
import type { Executor } from '../services/db';
import { buildKnownProjections, workspaceProjectionsDir } from '../services/projectedDatasets';
import { type Job, enqueue } from './queue';
import type { JobHandler } from './worker';

export const BUILD_PROJECTIONS = 'datasets.build-projections';

const projectionsPayload = z.object({ workspaceId: z.number().int() });

/**
 * Queues the build of a workspace's known column sets for its datasets' current versions, after a write made new
 * ones (`versionKey` names that write, so it is queued once).
 */
export async function enqueueProjectionBuild(db: Executor, workspaceId: number, versionKey: string): Promise<void> {
  await enqueue(db, {
    kind: BUILD_PROJECTIONS,
    key: `${workspaceId}:${versionKey}`,
    payload: { workspaceId },
    maxAttempts: 1,
  });
}

/**
 * Builds, for each dataset of the workspace that dashboards have opened projected, the column sets they asked for,
 * on the dataset's current version. A set that fails to build is logged, not retried: the first request for it
 * builds it as before.
 */
export function projectionHandlers(app: FastifyInstance): Record<string, JobHandler> {
  return {
    [BUILD_PROJECTIONS]: async (job: Job) => {
      const { workspaceId } = projectionsPayload.parse(job.payload);
      const { dataDir } = app.config;
      const workspaceDir = workspaceProjectionsDir(dataDir, workspaceId);
      const datasetIds = fs.existsSync(workspaceDir) ? fs.readdirSync(workspaceDir) : [];
      for (const datasetId of datasetIds) {
        const dataset = await findAvailableDataset(app.db.db, workspaceId, datasetId);
        if (!dataset) continue;
        const source = await datasetFile(dataDir, workspaceId, datasetId);
        const started = Date.now();
        const built = await buildKnownProjections(dataDir, workspaceId, datasetId, dataset.tableId, source, (error) =>
          app.log.warn({ err: error, workspaceId, datasetId }, 'projected dataset build failed'),
        );
        app.log.info({ workspaceId, datasetId, built, ms: Date.now() - started }, 'projected datasets ready');
      }
    },
  };
}
