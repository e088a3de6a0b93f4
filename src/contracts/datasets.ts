import { z } from 'zod';

/** Formats of dimensions (spec 3 §3, spec 1 §3). */
export const dimensionFormats = [
  'boolean',
  'country',
  'date',
  'month',
  'number_text',
  'string',
  'weekday',
  'url',
] as const;
/** Formats of metrics (measures). */
export const measureFormats = [
  'currency',
  'currency_rounded',
  'duration',
  'number',
  'number_rounded',
  'percent',
] as const;
export const fieldFormats = [...dimensionFormats, ...measureFormats] as const;
export const fieldFormatSchema = z.enum(fieldFormats);
export type FieldFormat = z.infer<typeof fieldFormatSchema>;

export const fieldFeatures = [
  'hide',
  'non_grouped',
  'funnel',
  'negative_measure',
  'gauge',
  'no_set_filter',
  'baseline',
  'explorer_default_field',
] as const;
export const fieldFeatureSchema = z.enum(fieldFeatures);
export type FieldFeature = z.infer<typeof fieldFeatureSchema>;

/** How a metric aggregates (DATA-CATALOGUE conventions). */
export const aggSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sum') }),
  z.object({ type: z.literal('min') }),
  z.object({ type: z.literal('max') }),
  z.object({ type: z.literal('count_distinct'), field: z.string() }),
  /** SUM(numerator) / NULLIF(SUM(denominator), 0), never an average of ratios. */
  z.object({ type: z.literal('weighted_avg'), numerator: z.string(), denominator: z.string() }),
  /** An arithmetic expression over other metric ids (spec 1 §5). */
  z.object({ type: z.literal('custom'), expression: z.string() }),
]);
export type Agg = z.infer<typeof aggSchema>;

export const ruleSchema = z.object({
  field: z.string(),
  type: z.string(),
  value: z.union([z.string(), z.number(), z.boolean()]),
  result: z.union([z.string(), z.number(), z.boolean()]),
});
export type Rule = z.infer<typeof ruleSchema>;

/** One field of a dataset schema as `GET …/datasets/{id}?schema=true` answers it. */
export const fieldSchema = z.object({
  id: z.string(),
  name: z.string(),
  shortName: z.string().optional(),
  label: z.string().optional(),
  category: z.string(),
  format: fieldFormatSchema,
  type: z.enum(['metric', 'dimension']),
  agg: aggSchema.optional(),
  features: z.array(fieldFeatureSchema).default([]),
  /** 'virtual' for custom fields of the data model, computed rather than stored. */
  dataSourceType: z.literal('virtual').optional(),
  /** A custom metric's expression. */
  expr: z.string().optional(),
  /** A rule-based dimension's rules and default. */
  rules: z.array(ruleSchema).optional(),
  rules_else: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
});
export type Field = z.infer<typeof fieldSchema>;

export const datasetSchemaSchema = z.object({
  id: z.string(),
  tableId: z.string(),
  dateField: z.string(),
  fields: z.array(fieldSchema),
  /** Rows in the workspace's current file of the dataset, as the server wrote it (its schema answer only). */
  rowCount: z.number().int().nonnegative().optional(),
});
export type DatasetSchema = z.infer<typeof datasetSchemaSchema>;

export const datasetListSchema = z.object({
  datasets: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type DatasetList = z.infer<typeof datasetListSchema>;
