import { type DatasetSchema, datasetSchemaSchema } from '../../contracts/datasets';
import { answer, api } from '../../store/api';

export interface DatasetRef {
  workspaceId: number;
  datasetId: string;
  /** On a publicly shared report's page: its datasets come through the report's public link. */
  publicReportId?: number;
}

/** A dataset's address under /api: the workspace's, or a public report's. */
export function datasetPath({ workspaceId, datasetId, publicReportId }: DatasetRef): string {
  const base = publicReportId === undefined ? `/workspaces/${workspaceId}` : `/reports/${publicReportId}`;
  return `${base}/datasets/${encodeURIComponent(datasetId)}`;
}

/**
 * A dataset's schema (`?schema=true`). The file itself is not an endpoint: it goes to the query engine, with
 * progress, a copy kept between visits and ETag/304 (download.ts).
 */
export const datasetsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDatasetSchema: build.query<DatasetSchema, DatasetRef>({
      query: (ref) => ({ url: datasetPath(ref), params: { schema: 'true' } }),
      responseSchema: answer(datasetSchemaSchema),
      providesTags: (_result, _error, { workspaceId }) => [{ type: 'Schema', id: workspaceId }],
    }),
  }),
});

export const { useGetDatasetSchemaQuery } = datasetsApi;
