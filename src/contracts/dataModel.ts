import { z } from 'zod';
import { isCalendarDate, workspaceIdParamsSchema } from './common';
import { fieldFeatureSchema, fieldSchema } from './datasets';

/** Conditions a dimension rule may use; strings allow all but regex, every other format only 'equals'. */
export const ruleConditions = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'regex',
] as const;
export type RuleCondition = (typeof ruleConditions)[number];

const ruleValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * One custom field of the data model as the editor sends it. Loose on purpose (optional id, any format
 * string, optional rule parts): the data-model rules in src/engine/dataModel check it and answer with the
 * spec's messages, which a schema error could not.
 */
export const customFieldSchema = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  shortName: z.string().optional(),
  label: z.string().optional(),
  category: z.string().optional(),
  format: z.string().optional(),
  type: z.string().optional(),
  features: z.array(fieldFeatureSchema).default([]),
  /** The custom-field flag the editor sends with every field. */
  custom: z.literal(true).default(true),
  /** A metric's arithmetic expression over field ids. */
  expr: z.string().optional(),
  /** A dimension's rules (first match wins) and its default. */
  rules: z
    .array(
      z.object({
        field: z.string().optional(),
        type: z.string().optional(),
        value: ruleValue.nullable().optional(),
        result: ruleValue.nullable().optional(),
      }),
    )
    .optional(),
  rules_else: z.union([ruleValue, z.null()]).optional(),
});
export type CustomFieldInput = z.input<typeof customFieldSchema>;
export type CustomField = z.output<typeof customFieldSchema>;

export const customFieldActions = ['insert_after', 'insert_before'] as const;

/** A group of custom fields placed in a table next to an anchor field (built-in or custom). */
export const customFieldGroupSchema = z.object({
  table: z.string(),
  action: z.enum(customFieldActions),
  /** The field the group goes after or before. */
  anchor: z.string(),
  fields: z.array(customFieldSchema),
});
export type CustomFieldGroup = z.output<typeof customFieldGroupSchema>;

/** The body of PUT and the answer of GET …/schema/custom-fields: the list of every group of the workspace. */
export const customFieldsBodySchema = z.array(customFieldGroupSchema).max(500);
export type CustomFieldsBody = z.output<typeof customFieldsBodySchema>;

/** GET …/schema/tables: every table (dataset) of the workspace with its fields, custom ones merged in. */
export const schemaTablesResponseSchema = z.object({
  tables: z.array(z.object({ id: z.string(), title: z.string(), dateField: z.string(), fields: z.array(fieldSchema) })),
});
export type SchemaTablesResponse = z.infer<typeof schemaTablesResponseSchema>;

/** GET …/datasets/campaigns/{campaignId}: the campaign's web-view URL, or null when it has none. */
export const campaignPreviewResponseSchema = z.object({ url: z.string().nullable() });
export type CampaignPreviewResponse = z.infer<typeof campaignPreviewResponseSchema>;

/** Dataset calls (GET …/datasets/{datasetId}): params, query and the headers of the file answer. */
export const datasetParamsSchema = workspaceIdParamsSchema.extend({ datasetId: z.string().max(200) });
/** The most columns a projected dataset request may name (the widest dataset has fewer fields). */
export const MAX_PROJECTED_COLUMNS = 200;
/** How a dataset file's rows are stored (see `format` below). */
export const DATASET_FORMATS = ['arrow', 'duckdb'] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];
/** The content type of a dataset sent as a DuckDB database file. */
export const DUCKDB_FILE_CONTENT_TYPE = 'application/octet-stream';

export const datasetQuerySchema = z.object({
  schema: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  /**
   * `a,b,c`: a file with only these fields' columns (all rows). Sorted and de-duplicated here, so equal sets share
   * one file and one URL; the route checks that each is a field of the dataset.
   */
  columns: z
    .string()
    .max(MAX_PROJECTED_COLUMNS * 201)
    .transform((value) => [...new Set(value.split(','))].sort())
    .pipe(z.array(z.string().min(1, 'Invalid column').max(200, 'Invalid column')).min(1).max(MAX_PROJECTED_COLUMNS))
    .optional(),
  /**
   * `duckdb`: the projected file as a DuckDB database file, which the app's engine attaches as it is (with `columns`
   * only); `arrow` (the default): an Arrow IPC stream, what every other reader of datasets gets.
   */
  format: z.enum(DATASET_FORMATS).optional(),
  /**
   * `yyyy-MM-dd` (with `columns` only): only the rows whose date field is on or after this day, for a dashboard whose
   * widgets read no earlier day. The browser names the first of a month, so a dashboard's file changes once a month.
   */
  since: z.string().refine(isCalendarDate, 'Invalid day').optional(),
});

/**
 * The query string of a projected dataset request: the sorted, de-duplicated list the server files it by. An id
 * with a comma (a custom field's, never a stored column) is left out: the columns it is computed from are named.
 */
export const projectedColumnsParam = (columns: readonly string[]): string =>
  [...new Set(columns.filter((id) => !id.includes(',')))].sort().join(',');
export const campaignParamsSchema = workspaceIdParamsSchema.extend({ campaignId: z.string().min(1).max(200) });
export const reportDatasetParamsSchema = z.object({ reportId: z.string(), datasetId: z.string() });
/** The uncompressed byte length of a dataset file: Content-Length cannot give progress when gzip is applied. */
export const TOTAL_LENGTH_HEADER = 'X-Total-Length';
export const DATASET_CONTENT_TYPE = 'application/vnd.apache.arrow.stream';
/** A member's dataset file: kept by the browser but revalidated (ETag) on every use, never by a shared cache. */
export const DATASET_CACHE_CONTROL = 'private, max-age=0, must-revalidate';
/** A member's dataset list, schema and campaign answers: not kept anywhere. */
export const PRIVATE_NO_STORE = 'private, no-store';
/** A public link's datasets: shared caches may keep them briefly, so a link turned off stops serving soon after. */
export const PUBLIC_DATASET_CACHE_CONTROL = 'public, max-age=60';
