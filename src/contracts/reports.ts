import { z } from 'zod';
import { idFromPath, idSchema, isCalendarDate, MAX_ID } from './common';
import { dashboardWithCurrentNames, explorerWithCurrentNames } from './legacyFields';

/** Report types (spec 2 §3). */
export const reportTypes = ['dashboard', 'explorer_view'] as const;
export const reportTypeSchema = z.enum(reportTypes);
export type ReportType = z.infer<typeof reportTypeSchema>;

/** Access levels, lowest first (spec 2 §6). */
export const accessLevels = ['none', 'read', 'read_write', 'full_access'] as const;
export const accessLevelSchema = z.enum(accessLevels);
export type AccessLevel = z.infer<typeof accessLevelSchema>;

export const shareLevels = ['private', 'user', 'workspace', 'public'] as const;
export type ShareLevel = (typeof shareLevels)[number];

/** Who an access entry is for: one member, everyone in the workspace, or anyone with the public link. */
export const subjectTypes = ['user', 'workspace', 'public'] as const;
export const subjectTypeSchema = z.enum(subjectTypes);
export type SubjectType = z.infer<typeof subjectTypeSchema>;

export const DEFAULT_EXPLORER_DATASET = 'campaign_metrics_by_send_date';
/** The old name of the send-date dataset, still found in saved widgets (spec 2 §3 Other). */
const LEGACY_DATASET = 'campaigns';
export const COPY_SUFFIX = ' (Copy)';
export const EVERYONE_IN_WORKSPACE = 'Everyone in the workspace';
export const MAX_TITLE_LENGTH = 256;

/** True when `level` grants at least `needed`. */
export const grants = (level: AccessLevel, needed: AccessLevel): boolean =>
  accessLevels.indexOf(level) >= accessLevels.indexOf(needed);

const dateRangeSchema = z.object({
  start: z.string().nullish(),
  end: z.string().nullish(),
  preset: z.string().optional(),
});
const dateRangesSchema = z.object({ main: dateRangeSchema.optional(), compare: dateRangeSchema.optional() });

/** A filter or a nested and/or group of filters (spec 2 §3 Filter). */
export interface ReportFilter {
  member?: string;
  operator?: string;
  values?: string[];
  aggregate?: boolean;
  and?: ReportFilter[];
  or?: ReportFilter[];
}
export const reportFilterSchema: z.ZodType<ReportFilter> = z.lazy(() =>
  z.object({
    member: z.string().optional(),
    operator: z.string().optional(),
    values: z.array(z.string()).optional(),
    aggregate: z.boolean().optional(),
    and: z.array(reportFilterSchema).optional(),
    or: z.array(reportFilterSchema).optional(),
  }),
);

const layoutSchema = z.object({
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  minW: z.number().optional(),
  minH: z.number().optional(),
  maxW: z.number().optional(),
  maxH: z.number().optional(),
  static: z.boolean().optional(),
});

/**
 * The widget kinds of a dashboard (spec 2 §2 Widgets). A saved widget may carry a kind this version does not
 * know (the type stays a free string), but every kind listed here has an entry in the widget registry.
 */
export const widgetTypes = [
  'campaign_performance',
  'graph',
  'funnel',
  'table',
  'high_low',
  'subscriber_growth',
  'target',
  'list',
  'rich_text',
] as const;
export type WidgetType = (typeof widgetTypes)[number];

export const isWidgetType = (type: string): type is WidgetType => widgetTypes.includes(type as WidgetType);

/** A widget of a dashboard (spec 2 §3 Widget); keys not listed there are dropped on save. */
export const widgetSchema = z.object({
  id: z.string(),
  type: z.string(),
  dataset: z.string().optional(),
  dateField: z.string().optional(),
  title: z.string().optional(),
  height: z.number().optional(),
  metrics: z.array(z.string()).optional(),
  dimension: z.string().nullish(),
  dimensions: z.array(z.string()).optional(),
  groupBy: z.array(z.string()).nullish(),
  filters: z.array(reportFilterSchema).optional(),
  metricsByDimensions: z
    .array(z.object({ metric: z.string(), dimension: z.string(), filters: z.array(reportFilterSchema).optional() }))
    .optional(),
  filteredLists: z.array(z.string()).optional(),
  funnelMetrics: z.array(z.string()).optional(),
  conversionMetric: z.string().optional(),
  targets: z.array(z.union([z.string(), z.number()])).optional(),
  dateStart: z.string().nullish(),
  dateEnd: z.string().nullish(),
  target: z.number().nullish(),
  modified: z.union([z.string(), z.number(), z.boolean()]).optional(),
  limit: z.number().nullish(),
  content: z.string().optional(),
  data: z.unknown().optional(),
  maxYAxisScale: z.literal('auto').nullish(),
  disableAutofocusFirstTab: z.boolean().optional(),
  layout: layoutSchema.optional(),
  visualizationSettings: z
    .object({
      display: z
        .object({
          type: z.enum(['tab', 'grid', 'card', 'line', 'bar']).optional(),
          orderBy: z.string().optional(),
          order: z.enum(['asc', 'desc']).optional(),
          palette: z.string().nullish(),
          verticalAlignment: z.enum(['start', 'center', 'end']).optional(),
        })
        .optional(),
      chart: z
        .object({
          chartType: z.enum(['line', 'bar']).optional(),
          granularity: z.enum(['auto', 'day', 'week', 'month', 'quarter']).optional(),
          groupMode: z.enum(['stacked', 'grouped']).optional(),
          autoScaleYAxis: z.boolean().optional(),
        })
        .optional(),
      funnel: z.object({ direction: z.enum(['horizontal', 'vertical']).optional() }).optional(),
    })
    .optional(),
});
export type Widget = z.infer<typeof widgetSchema>;

export const dashboardConfigSchema = z.object({
  title: z.string().optional(),
  widgets: z.array(widgetSchema).default([]),
  /** Either a list of names or a map of name to on/off (for example grid_layout). */
  flags: z.union([z.array(z.string()), z.record(z.string(), z.boolean())]).optional(),
  filters: z.array(reportFilterSchema).optional(),
  dateRanges: dateRangesSchema.optional(),
});
export type DashboardConfig = z.infer<typeof dashboardConfigSchema>;

const explorerColumnSchema = z.object({
  colId: z.string(),
  hide: z.boolean().nullish(),
  width: z.number().nullish(),
  rowGroup: z.boolean().nullish(),
  pivot: z.boolean().nullish(),
  pinned: z.enum(['left', 'right']).nullish(),
  sort: z.enum(['asc', 'desc']).nullish(),
});

export const explorerConfigSchema = z.object({
  title: z.string().optional(),
  dataset: z.string().default(DEFAULT_EXPLORER_DATASET),
  dateField: z.string().optional(),
  pivotMode: z.boolean().optional(),
  filterModel: z.record(z.string(), z.unknown()).nullish(),
  valueColumns: z.array(z.string()).optional(),
  columns: z.array(explorerColumnSchema).optional(),
  /** The older name of `columns`, still found in saved views. */
  view: z.array(explorerColumnSchema).optional(),
  kpiData: z.record(z.string(), z.union([z.number(), z.string()]).nullable()).optional(),
  baselineId: z.union([z.string(), z.number()]).nullish(),
  dateRanges: dateRangesSchema.optional(),
});
export type ExplorerConfig = z.infer<typeof explorerConfigSchema>;

export type ReportConfig = DashboardConfig | ExplorerConfig;

/** The config schema of a report type. A JSON string is accepted as well as an object (spec 2 §3). */
export function reportConfigSchema(type: ReportType) {
  const fromJson = (value: unknown) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  };
  // Saved reports may still name fields as the older datasets did: they are read (and saved) with today's names.
  return type === 'dashboard'
    ? z.preprocess(fromJson, dashboardConfigSchema).transform(dashboardWithCurrentNames)
    : z.preprocess(fromJson, explorerConfigSchema).transform(explorerWithCurrentNames);
}

/** A dataset as saved reports name it: the old name of the send-date dataset read as today's. */
const currentDataset = (id: string): string => (id === LEGACY_DATASET ? DEFAULT_EXPLORER_DATASET : id);

/** The dataset a widget reads: its own, else the one its type implies; none for text. */
export function datasetOfWidget(widget: Widget): string | null {
  if (widget.dataset) return currentDataset(widget.dataset);
  if (widget.type === 'rich_text') return null;
  return widget.type === 'subscriber_growth' ? 'list_members' : DEFAULT_EXPLORER_DATASET;
}

/**
 * The dataset a widget's own queries read on a dashboard: none for a text, nor for a target card, which reads its
 * target's dataset (the projection, the public scope and the schemas asked for ahead agree on it).
 */
export function datasetQueriedByWidget(widget: Widget): string | null {
  return widget.type === 'target' ? null : datasetOfWidget(widget);
}

/** The dataset an explorer view reads. */
export function datasetOfExplorer(config: ExplorerConfig): string {
  return currentDataset(config.dataset ?? DEFAULT_EXPLORER_DATASET);
}

/**
 * Where a config holds a day that does not exist (dateRanges' start and end, a widget's dateStart and dateEnd),
 * as a path such as 'dateRanges.main.start'; null when every day is real. Reading stays lenient (the picker falls
 * back on an invalid saved range), but the server refuses to save one.
 */
export function impossibleDateIn(config: ReportConfig): string | null {
  const days: [string, string | null | undefined][] = [];
  for (const period of ['main', 'compare'] as const) {
    const range = config.dateRanges?.[period];
    days.push([`dateRanges.${period}.start`, range?.start], [`dateRanges.${period}.end`, range?.end]);
  }
  if ('widgets' in config) {
    config.widgets.forEach((widget, index) => {
      days.push([`widgets.${index}.dateStart`, widget.dateStart], [`widgets.${index}.dateEnd`, widget.dateEnd]);
    });
  }
  const bad = days.find(([, value]) => typeof value === 'string' && value !== '' && !isCalendarDate(value));
  return bad ? bad[0] : null;
}

/** The datasets a report's config reads: what its public link may serve. */
export function datasetsOfConfig(type: ReportType, config: unknown): string[] {
  if (type === 'explorer_view') {
    const parsed = explorerConfigSchema.safeParse(config);
    return parsed.success ? [datasetOfExplorer(parsed.data)] : [];
  }
  const parsed = dashboardConfigSchema.safeParse(config);
  if (!parsed.success) return [];
  const used = parsed.data.widgets.flatMap((widget) => datasetOfWidget(widget) ?? []);
  return [...new Set(used)].sort();
}

export const userRefSchema = z.object({ id: z.number().int(), name: z.string() });
export type UserRef = z.infer<typeof userRefSchema>;

/** One report as the API answers it (spec 2 §3 Report). */
export const reportSchema = z.object({
  id: z.number().int(),
  workspace_id: z.number().int(),
  type: reportTypeSchema,
  title: z.string(),
  /** The first dataset its config reads, if any. */
  dataset: z.string().nullable(),
  config: z.union([dashboardConfigSchema, explorerConfigSchema]),
  version: z.number().int(),
  owner: userRefSchema.nullable(),
  created_at: z.string(),
  created_by: userRefSchema.nullable(),
  modified_at: z.string(),
  modified_by: userRefSchema.nullable(),
  /** When the signed-in user last opened it. */
  last_opened_at: z.string().nullable(),
  /** The signed-in user's level; never none, as those reports are not answered. */
  access_level: accessLevelSchema,
  share_level: z.enum(shareLevels),
});
export type Report = Omit<z.infer<typeof reportSchema>, 'config'> & { config: ReportConfig };

/** A report in the list: the same without its config. */
export const reportSummarySchema = reportSchema.omit({ config: true });
export type ReportSummary = z.infer<typeof reportSummarySchema>;

export const reportResponseSchema = z.object({ data: reportSchema });
export const reportListResponseSchema = z.object({ data: z.array(reportSummarySchema) });

export const permissionSchema = z.object({
  id: z.number().int(),
  /** The member's id; null for the workspace entry and the public link. */
  subjectId: z.number().int().nullable(),
  subjectType: subjectTypeSchema,
  subjectName: z.string(),
  objectId: z.number().int(),
  objectType: reportTypeSchema,
  accessLevel: accessLevelSchema,
  createdAt: z.string(),
  modifiedAt: z.string(),
});
export type Permission = z.infer<typeof permissionSchema>;
export const permissionListResponseSchema = z.object({ data: z.array(permissionSchema) });

/** A publicly shared report as GET /reports/{id}/config answers it. */
export const publicReportResponseSchema = z.object({
  data: reportSchema.pick({ id: true, type: true, title: true, config: true, version: true }).extend({
    // Read by its type (reportConfigSchema): both config schemas accept any object, so a union of them always
    // takes the dashboard's and strips an explorer view's fields.
    config: z.unknown(),
    modifiedAt: z.string(),
    access_level: z.literal('read'),
    share_level: z.literal('public'),
  }),
});

/** The workspace of a publicly shared report: enough for its page and its suspended or cancelled notices. */
export const publicWorkspaceResponseSchema = z.object({
  data: z.object({
    id: z.number().int(),
    name: z.string(),
    displayName: z.string(),
    status: z.enum(['new', 'active', 'suspended', 'cancelled']),
    locale: z.enum(['en_US', 'en_GB', 'nl_NL']),
  }),
});

const titleSchema = z.string().trim().min(1, 'Title cannot be empty').max(MAX_TITLE_LENGTH);

/** A report asked for by another type than its own (spec 2 §5 Reports), word for word. */
export const WRONG_TYPE_MESSAGES: Record<ReportType, string> = {
  explorer_view: 'Invalid type: must be an explorer report',
  dashboard: 'Invalid type: must be an dashboard report',
};
export const DUPLICATE_INVALID_TYPE = 'Cannot duplicate: Invalid type';

export const reportParamsSchema = z.object({
  workspaceId: idFromPath('Invalid workspace id'),
  type: reportTypeSchema,
  id: idFromPath('Invalid report id'),
});
export const reportTypeParamsSchema = reportParamsSchema.pick({ workspaceId: true, type: true });
/** Duplicating names the report's type too; any other type is refused in the spec's words. */
export const duplicateReportParamsSchema = reportParamsSchema.extend({
  type: z.enum(reportTypes, { error: DUPLICATE_INVALID_TYPE }),
});
export const publicReportParamsSchema = z.object({ reportId: idFromPath('Invalid report id') });

/**
 * Creating a report: only its title and config. Owner, workspace, version and access levels are the server's
 * to set, so a body naming them is refused (strict).
 */
export const createReportBodySchema = z.strictObject({
  title: titleSchema,
  config: z.unknown().optional(),
});

/**
 * Saving a report: the version the edit was based on, and whether to keep it as a new view instead of
 * overwriting (spec 2 §4 Save choices). Strict for the same reason as creating.
 */
export const saveReportBodySchema = z.strictObject({
  title: titleSchema.optional(),
  config: z.unknown(),
  version: z.number().int().positive().max(MAX_ID),
  saveAsNewView: z.boolean().optional(),
});
export type SaveReportBody = z.infer<typeof saveReportBodySchema>;

export const renameReportBodySchema = z.strictObject({ title: titleSchema });

export const permissionsQuerySchema = z.object({
  object_type: reportTypeSchema,
  object_id: idFromPath('Invalid report id'),
});

export const permissionParamsSchema = z.object({
  workspaceId: idFromPath('Invalid workspace id'),
  permissionId: idFromPath('Invalid permission id'),
});

/** Setting one access entry (spec 2 §7): `none` removes it. */
export const permissionBodySchema = z.strictObject({
  accessLevel: accessLevelSchema,
  subjectId: idSchema.nullish(),
  subjectType: subjectTypeSchema,
  objectId: idSchema,
  objectType: reportTypeSchema,
});
export type PermissionBody = z.infer<typeof permissionBodySchema>;

/** The 409 answer of a stale save: the version on the server and who saved it. */
export const versionConflictSchema = z.object({
  error: z.string(),
  version: z.number().int(),
  modifiedBy: userRefSchema.nullable(),
});
export type VersionConflict = z.infer<typeof versionConflictSchema>;
export const VERSION_CONFLICT = 'Another user saved a newer version of this report';
/** The 403 of an editor's save that would make a public link show more (another dataset, field, or fewer filters). */
export const PUBLIC_LINK_WIDENED =
  'This report has a public link: only members with full access can save changes that show more data through it';

/** The same when the newer version is the caller's own save. */
export const OWN_VERSION_CONFLICT = 'You saved a newer version of this report';
