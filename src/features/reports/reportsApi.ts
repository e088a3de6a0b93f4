import { type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { z } from 'zod';
import {
  type AccessLevel,
  type Permission,
  type PermissionBody,
  type Report,
  type ReportConfig,
  type ReportSummary,
  type ReportType,
  reportTypeSchema,
  type SaveReportBody,
  type VersionConflict,
  permissionListResponseSchema,
  publicReportResponseSchema,
  publicWorkspaceResponseSchema,
  reportConfigSchema,
  reportListResponseSchema,
  reportSchema,
  versionConflictSchema,
} from '../../contracts/reports';
import { flagsResponseSchema } from '../../contracts/workspaces';
import { api, shouldRetry } from '../../store/api';
import { dataOf } from '../../store/httpRules';
import { idempotencyHeaders } from '../../store/idempotency';

/** The spec's polling interval for a report and the report list (spec 2 §9). */
export const REPORT_POLL_MS = 10_000;

export interface ReportRef {
  workspaceId: number;
  type: ReportType;
  id: number;
}

/** The report a report page's route parameters name (`:workspaceId`, `:objectType`, `:objectId`), or null. */
export function reportRefOf(params: Record<string, string | undefined>): ReportRef | null {
  const type = reportTypeSchema.safeParse(params.objectType);
  const workspaceId = Number(params.workspaceId);
  const id = /^[1-9]\d*$/.test(params.objectId ?? '') ? Number(params.objectId) : NaN;
  if (!type.success || !Number.isSafeInteger(id) || !Number.isSafeInteger(workspaceId)) return null;
  return { workspaceId, type: type.data, id };
}

const listTag = (workspaceId: number) => ({ type: 'Reports' as const, id: workspaceId });
const reportTag = (id: number) => ({ type: 'Report' as const, id });
const permissionsTag = (id: number) => ({ type: 'Report' as const, id: `permissions/${id}` });

/**
 * The contract's config is a union of the two config schemas, and an explorer config also passes the dashboard
 * one (losing its dataset and columns), so the envelope keeps the config as sent and it is read with its own
 * type's schema.
 */
const reportEnvelopeSchema = z.object({ data: reportSchema.extend({ config: z.unknown() }) });

function typedConfig<R extends { type: ReportType; config: unknown }>(report: R): R & { config: ReportConfig } {
  return { ...report, config: reportConfigSchema(report.type).parse(report.config) };
}

/** A report answer: its envelope checked against the contract, then its config read by its type. */
const reportAnswer = {
  rawResponseSchema: reportEnvelopeSchema,
  transformResponse: ({ data }: z.output<typeof reportEnvelopeSchema>): Report => typedConfig(data),
};

/** A save refused because someone saved a newer version first: what the conflict notice needs. */
export function versionConflictOf(error: unknown): VersionConflict | null {
  const fetchError = error as FetchBaseQueryError | undefined;
  if (fetchError?.status !== 409) return null;
  const parsed = versionConflictSchema.safeParse(fetchError.data);
  return parsed.success ? parsed.data : null;
}

export type PublicReport = ReturnType<typeof publicReportResponseSchema.parse>['data'];
export type PublicWorkspace = ReturnType<typeof publicWorkspaceResponseSchema.parse>['data'];

export const reportsApi = api.injectEndpoints({
  // Long because RTK Query takes a feature's endpoints as one object; each endpoint is a few lines.
  endpoints: (build) => ({
    /** The list without the reports whose access level is none (the server never answers those). */
    getReports: build.query<ReportSummary[], number>({
      query: (workspaceId) => `/workspaces/${workspaceId}/reports`,
      rawResponseSchema: reportListResponseSchema,
      transformResponse: ({ data }: z.output<typeof reportListResponseSchema>) =>
        data.filter((report) => report.access_level !== 'none'),
      providesTags: (_result, _error, workspaceId) => [listTag(workspaceId)],
    }),
    getReport: build.query<Report, ReportRef>({
      query: ({ workspaceId, type, id }) => `/workspaces/${workspaceId}/reports/${type}/${id}`,
      ...reportAnswer,
      providesTags: (_result, _error, { id }) => [reportTag(id)],
    }),
    createReport: build.mutation<
      Report,
      { workspaceId: number; type: ReportType; title: string; config?: ReportConfig }
    >({
      query: ({ workspaceId, type, title, config }) => ({
        url: `/workspaces/${workspaceId}/reports/${type}`,
        method: 'POST',
        body: { title, config },
        headers: idempotencyHeaders(),
      }),
      ...reportAnswer,
      invalidatesTags: (_result, _error, { workspaceId }) => [listTag(workspaceId)],
    }),
    /**
     * Saves a local edit on top of `body.version`. A stale version is refused with 409; read it with
     * `versionConflictOf`. With `saveAsNewView` the answer is a new report.
     */
    saveReport: build.mutation<Report, ReportRef & { body: SaveReportBody }>({
      query: ({ workspaceId, type, id, body }) => ({
        url: `/workspaces/${workspaceId}/reports/${type}/${id}`,
        method: 'PUT',
        body,
        // A retry of a save that went through gets its answer, not a conflict with itself.
        headers: idempotencyHeaders(),
      }),
      // A stale save stays stale: retrying a 409 would only hold back the newer-version notice.
      extraOptions: {
        retryCondition: (error, _args, { attempt }) =>
          (error as FetchBaseQueryError).status !== 409 && shouldRetry(error as FetchBaseQueryError, attempt),
      },
      ...reportAnswer,
      invalidatesTags: (_result, error, { workspaceId, id }) =>
        // A conflict means the server copy is newer than ours: fetch it so the notice can offer it.
        error && error.status !== 409 ? [] : [listTag(workspaceId), reportTag(id)],
    }),
    renameReport: build.mutation<Report, ReportRef & { title: string }>({
      query: ({ workspaceId, type, id, title }) => ({
        url: `/workspaces/${workspaceId}/reports/${type}/${id}/title`,
        method: 'PUT',
        body: { title },
      }),
      ...reportAnswer,
      invalidatesTags: (_result, error, { workspaceId, id }) => (error ? [] : [listTag(workspaceId), reportTag(id)]),
    }),
    deleteReport: build.mutation<{ ok: true }, ReportRef>({
      query: ({ workspaceId, type, id }) => ({
        url: `/workspaces/${workspaceId}/reports/${type}/${id}`,
        method: 'DELETE',
      }),
      // Only the list: refetching the deleted report itself would just answer 404.
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [listTag(workspaceId)]),
    }),
    duplicateReport: build.mutation<Report, ReportRef>({
      query: ({ workspaceId, type, id }) => ({
        url: `/workspaces/${workspaceId}/reports/${type}/${id}/duplicate`,
        method: 'POST',
        headers: idempotencyHeaders(),
      }),
      ...reportAnswer,
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [listTag(workspaceId)]),
    }),
    /** Records that the user opened the report (orders the list by lastOpenedAt). */
    markReportOpened: build.mutation<Report, ReportRef>({
      query: ({ workspaceId, type, id }) => ({
        url: `/workspaces/${workspaceId}/reports/${type}/${id}/opened`,
        method: 'POST',
      }),
      ...reportAnswer,
      invalidatesTags: (_result, error, { workspaceId }) => (error ? [] : [listTag(workspaceId)]),
    }),
    getPermissions: build.query<Permission[], ReportRef>({
      query: ({ workspaceId, type, id }) => ({
        url: `/workspaces/${workspaceId}/permissions`,
        params: { object_type: type, object_id: id },
      }),
      ...dataOf(permissionListResponseSchema),
      providesTags: (_result, _error, { id }) => [permissionsTag(id)],
    }),
    /**
     * Sets one access entry: by its id when it exists, else by subject (PUT without id creates or updates).
     * Level none removes the entry. Answers the report's new list of entries.
     */
    setPermission: build.mutation<Permission[], { workspaceId: number; permissionId?: number; body: PermissionBody }>({
      query: ({ workspaceId, permissionId, body }) =>
        body.accessLevel === 'none' && permissionId !== undefined
          ? { url: `/workspaces/${workspaceId}/permissions/${permissionId}`, method: 'DELETE' }
          : {
              url: `/workspaces/${workspaceId}/permissions${permissionId === undefined ? '' : `/${permissionId}`}`,
              method: 'PUT',
              body,
            },
      ...dataOf(permissionListResponseSchema),
      // The share level shown in the list and on the report changes with the entries.
      invalidatesTags: (_result, error, { workspaceId, body }) =>
        error ? [] : [permissionsTag(body.objectId), reportTag(body.objectId), listTag(workspaceId)],
    }),
    getPublicReport: build.query<PublicReport, number>({
      query: (reportId) => `/reports/${reportId}/config`,
      rawResponseSchema: publicReportResponseSchema,
      transformResponse: ({ data }: z.output<typeof publicReportResponseSchema>) => typedConfig(data),
    }),
    getPublicWorkspace: build.query<PublicWorkspace, number>({
      query: (reportId) => `/reports/${reportId}/workspace`,
      ...dataOf(publicWorkspaceResponseSchema),
    }),
    getPublicFlags: build.query<string[], number>({
      query: (reportId) => `/reports/${reportId}/workspace/flags`,
      ...dataOf(flagsResponseSchema),
    }),
  }),
});

export const {
  useGetReportsQuery,
  useGetReportQuery,
  useCreateReportMutation,
  useSaveReportMutation,
  useRenameReportMutation,
  useDeleteReportMutation,
  useDuplicateReportMutation,
  useMarkReportOpenedMutation,
  useGetPermissionsQuery,
  useSetPermissionMutation,
  useGetPublicReportQuery,
  useGetPublicWorkspaceQuery,
  useGetPublicFlagsQuery,
} = reportsApi;

/** What a level allows (spec 2 §6): write is read_write or more; delete and share need full access. */
export const can = {
  read: (level: AccessLevel) => level !== 'none',
  write: (level: AccessLevel) => level === 'read_write' || level === 'full_access',
  delete: (level: AccessLevel) => level === 'full_access',
  share: (level: AccessLevel) => level === 'full_access',
};
