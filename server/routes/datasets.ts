import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { getCatalogueDataset, toDatasetSchema } from '../../src/contracts/catalogue';
import { workspaceIdParamsSchema } from '../../src/contracts/common';
import {
  DATASET_CACHE_CONTROL,
  DATASET_CONTENT_TYPE,
  DUCKDB_FILE_CONTENT_TYPE,
  PRIVATE_NO_STORE,
  PUBLIC_DATASET_CACHE_CONTROL,
  TOTAL_LENGTH_HEADER,
  datasetParamsSchema,
  datasetQuerySchema,
  campaignParamsSchema,
  reportDatasetParamsSchema,
} from '../../src/contracts/dataModel';
import { requireMember } from '../auth/access';
import { badRequest, notFound } from '../http/errors';
import type { ZodTypeProvider } from '../http/zod';
import { fieldsWithCustomFields, getCustomFieldGroups } from '../services/dataModel';
import {
  availableDatasets,
  datasetFile,
  datasetRows,
  findAvailableDataset,
  ParquetQueries,
  type DatasetFile,
} from '../services/datasets';
import { markProjectionUsed, projectedDaysFile } from '../services/projectedDatasets';
import { publicDatasetFile, publicScopes } from '../services/publicDatasets';
import { findPublicReport } from '../services/reports';

function accepts(request: FastifyRequest, encoding: 'gzip' | 'br'): boolean {
  const header = request.headers['accept-encoding'];
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value
    .split(',')
    .map((part) => part.trim().split(';'))
    .some(
      ([coding, ...params]) =>
        (coding === encoding || coding === '*') && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)),
    );
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/** A single `bytes=start-end` range within `size`, or null for a header we do not serve as a range. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends a dataset's file: brotli-encoded (DuckDB files) or gzip-encoded when the client accepts it (precompressed
 * on disk), with X-Total-Length giving the uncompressed size for progress. A Range request (a resumed download) gets
 * the uncompressed bytes it asks for, so a client can continue from the count of bytes it already decoded.
 */
async function sendDatasetFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: DatasetFile,
  cacheControl = DATASET_CACHE_CONTROL,
  contentType = DATASET_CONTENT_TYPE,
) {
  const etag = `"${file.version}"`;
  reply
    .header('ETag', etag)
    .header('Cache-Control', cacheControl)
    .header('Vary', 'Accept-Encoding')
    .header('Accept-Ranges', 'bytes')
    .header(TOTAL_LENGTH_HEADER, String(file.arrowBytes));
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();

  const ifRange = request.headers['if-range'];
  const rangeHeader = ifRange === undefined || ifRange === etag ? request.headers.range : undefined;
  const range = parseRange(rangeHeader, file.arrowBytes);
  if (range === 'unsatisfiable') {
    return reply
      .code(416)
      .header('Content-Range', `bytes */${file.arrowBytes}`)
      .send({ error: 'Range not satisfiable' });
  }
  reply.type(contentType);
  // Opened before answering, so a regeneration renaming the directory cannot swap the file mid-download.
  if (range) {
    const handle = await fs.promises.open(file.arrowPath);
    return reply
      .code(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${file.arrowBytes}`)
      .header('Content-Length', String(range.end - range.start + 1))
      .send(handle.createReadStream({ start: range.start, end: range.end }));
  }
  if (request.method !== 'HEAD' && file.brotli && accepts(request, 'br')) {
    const handle = await fs.promises.open(file.brotli.path);
    return reply
      .header('Content-Encoding', 'br')
      .header('Content-Length', String(file.brotli.bytes))
      .send(handle.createReadStream());
  }
  if (request.method !== 'HEAD' && accepts(request, 'gzip')) {
    const handle = await fs.promises.open(file.gzipPath);
    return reply
      .header('Content-Encoding', 'gzip')
      .header('Content-Length', String(file.gzipBytes))
      .send(handle.createReadStream());
  }
  const handle = await fs.promises.open(file.arrowPath);
  return reply.header('Content-Length', String(file.arrowBytes)).send(handle.createReadStream());
}

/**
 * Datasets of a workspace: the list, each dataset's file or schema, and a campaign's web-view URL.
 * Long because a plugin registers all its routes in one place; each handler stays short and calls services.
 */
export const datasetRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const db = app.db.db;
  const parquet = new ParquetQueries(app.config.dataDir);
  app.addHook('onClose', () => parquet.close());

  app.get(
    '/workspaces/:workspaceId/datasets',
    { schema: { params: workspaceIdParamsSchema } },
    async (request, reply) => {
      await requireMember(request, request.params.workspaceId);
      reply.header('Cache-Control', PRIVATE_NO_STORE);
      const { listed } = await availableDatasets(db, request.params.workspaceId);
      return { datasets: listed.map((dataset) => ({ id: dataset.id, title: dataset.title })) };
    },
  );

  app.get(
    '/workspaces/:workspaceId/datasets/campaigns/:campaignId',
    { schema: { params: campaignParamsSchema } },
    async (request, reply) => {
      const { workspaceId, campaignId } = request.params;
      await requireMember(request, workspaceId);
      reply.header('Cache-Control', PRIVATE_NO_STORE);
      const file = await datasetFile(app.config.dataDir, workspaceId, 'campaign_metrics_by_send_date');
      return { url: await parquet.campaignWebviewUrl(file.parquetPath, campaignId) };
    },
  );

  app.get(
    '/workspaces/:workspaceId/datasets/:datasetId',
    // Compressed here from the precompressed file; the global compression must not compress it again.
    { schema: { params: datasetParamsSchema, querystring: datasetQuerySchema }, compress: false },
    async (request, reply) => {
      const { workspaceId, datasetId } = request.params;
      await requireMember(request, workspaceId);
      const dataset = await findAvailableDataset(db, workspaceId, datasetId);
      if (!dataset) throw notFound();
      if (request.query.schema) {
        const groups = await getCustomFieldGroups(db, workspaceId);
        // The row count answers "is there any data?" (the dashboard's not-configured notice) without the engine.
        const rowCount = await datasetRows(app.config.dataDir, workspaceId, datasetId);
        reply.header('Cache-Control', PRIVATE_NO_STORE);
        return { ...toDatasetSchema(dataset), fields: fieldsWithCustomFields(dataset, groups), rowCount };
      }
      const source = await datasetFile(app.config.dataDir, workspaceId, datasetId);
      const { columns, format = 'arrow', since } = request.query;
      if (!columns && format === 'duckdb') throw badRequest('Invalid querystring: format: duckdb needs columns');
      if (!columns && since) throw badRequest('Invalid querystring: since: since needs columns');
      if (!columns) return sendDatasetFile(request, reply, source);
      // Any field of the schema the browser was given, custom ones included (their sources are stored columns).
      const known = new Set(
        fieldsWithCustomFields(dataset, await getCustomFieldGroups(db, workspaceId)).map((f) => f.id),
      );
      const unknown = columns.find((id) => !known.has(id));
      if (unknown !== undefined) throw badRequest(`Invalid querystring: columns: unknown field ${unknown}`);
      const { file, standIn } = await projectedDaysFile(
        app.config.dataDir,
        workspaceId,
        datasetId,
        dataset.tableId,
        source,
        columns,
        format,
        // The rows of the dataset's date field from that day, as the browser's date ranges read it.
        since ? { since, dateField: toDatasetSchema(dataset).dateField } : {},
        (error) => request.log.error({ err: error, workspaceId, datasetId }, 'projected file build failed'),
      );
      if (!standIn) markProjectionUsed(file);
      const type = format === 'duckdb' ? DUCKDB_FILE_CONTENT_TYPE : DATASET_CONTENT_TYPE;
      return sendDatasetFile(request, reply, file, DATASET_CACHE_CONTROL, type);
    },
  );

  // Public variants for a report shared publicly: only the datasets its widgets read, and of those only the rows
  // and fields its widgets show (services/publicDatasets). While the link is off, and for any other dataset, the
  // answer is the same not-found as for a report that does not exist.
  async function publicDataset(reportId: string, datasetId: string) {
    const report = await findPublicReport(db, reportId);
    if (!report) throw notFound();
    const scoped = (await publicScopes(db, report.workspaceId, report.type, report.config)).get(datasetId);
    if (!scoped) throw notFound();
    return { report, ...scoped };
  }

  async function publicFile(reportId: string, datasetId: string) {
    const { report, schema, scope } = await publicDataset(reportId, datasetId);
    const source = await datasetFile(app.config.dataDir, report.workspaceId, datasetId);
    return {
      scope,
      file: await publicDatasetFile(app.config.dataDir, report.id, report.version, source, schema, scope),
    };
  }

  /** A small public JSON answer, cached briefly and revalidated by its content's ETag. */
  function sendPublicJson(request: FastifyRequest, reply: FastifyReply, body: unknown) {
    const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 20)}"`;
    reply.header('ETag', etag).header('Cache-Control', PUBLIC_DATASET_CACHE_CONTROL);
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.send(body);
  }

  app.get(
    '/reports/:reportId/datasets',
    { schema: { params: reportDatasetParamsSchema.pick({ reportId: true }) } },
    async (request, reply) => {
      const report = await findPublicReport(db, request.params.reportId);
      if (!report) throw notFound();
      const used = [...(await publicScopes(db, report.workspaceId, report.type, report.config)).keys()];
      const datasets = used.map((id) => ({ id, title: getCatalogueDataset(id)?.title ?? id }));
      return sendPublicJson(request, reply, { datasets });
    },
  );

  app.get(
    '/reports/:reportId/datasets/campaigns/:campaignId',
    { schema: { params: z.object({ reportId: z.string(), campaignId: z.string().min(1).max(200) }) } },
    async (request, reply) => {
      const { scope, file } = await publicFile(request.params.reportId, 'campaign_metrics_by_send_date');
      // Only a web view the report's rows show: the public file's own campaigns and links.
      if (!scope.fields.includes('campaign_id') || !scope.fields.includes('webview_url')) throw notFound();
      const url = await parquet.campaignWebviewUrl(file.parquetPath, request.params.campaignId);
      return sendPublicJson(request, reply, { url });
    },
  );

  app.get(
    '/reports/:reportId/datasets/:datasetId',
    // A public link serves its report's scope only: no projection of its own.
    {
      schema: { params: reportDatasetParamsSchema, querystring: datasetQuerySchema.pick({ schema: true }) },
      compress: false,
    },
    async (request, reply) => {
      const { reportId, datasetId } = request.params;
      if (request.query.schema) {
        const { schema, scope } = await publicDataset(reportId, datasetId);
        return sendPublicJson(request, reply, {
          ...schema,
          fields: schema.fields.filter((field) => scope.fields.includes(field.id)),
        });
      }
      const { file } = await publicFile(reportId, datasetId);
      return sendDatasetFile(request, reply, file, PUBLIC_DATASET_CACHE_CONTROL);
    },
  );
};
