import { Callout, Spinner } from '@blueprintjs/core';
import { useMemo } from 'react';
import type { Locale } from '../../contracts/common';
import type { CustomField } from '../../contracts/dataModel';
import { customFieldToField } from '../../engine/dataModel/edit';
import { mainPresetRange } from '../../engine/dates';
import { formatValue } from '../../engine/format';
import { useFunnelQuery } from '../../store/engineApi';
import { localToday } from '../date-range/ranges';
import { useWidgetData } from '../widgets/useWidgetData';
import { resultRows } from '../widgets/widgetQuery';
import { isCustomField, type TableField } from './dataModelSlice';

export interface MetricPreviewProps {
  workspaceId: number;
  tableId: string;
  metric: CustomField;
  /** The table's fields as edited: the preview computes the metric as it would be saved. */
  fields: TableField[];
  locale: Locale;
}

/** The edited metric's value over the last 30 days, computed in the browser's query engine. */
export function MetricPreview({ workspaceId, tableId, metric, fields, locale }: MetricPreviewProps) {
  const data = useWidgetData({ workspaceId }, tableId);
  const schemaFields = useMemo(
    () => fields.map((field) => (isCustomField(field) ? customFieldToField(field) : field)),
    [fields],
  );
  const range = useMemo(() => mainPresetRange('last_30_days', localToday()), []);
  const result = useFunnelQuery(
    {
      workspaceId,
      query: { kind: 'funnel', dataset: tableId, range, metrics: [metric.id ?? ''] },
      version: data.version,
      supersedeKey: `data-model-preview-${tableId}`,
      fields: schemaFields,
    },
    { skip: data.status !== 'ready' },
  );
  if (data.status === 'error') return <Callout intent="danger">{data.error}</Callout>;
  if (data.status === 'loading' || result.isFetching) return <Spinner size={20} aria-label="Computing the preview" />;
  if (result.error)
    return (
      <Callout intent="danger">{'message' in result.error ? result.error.message : 'Preview unavailable'}</Callout>
    );
  const row = resultRows(result.currentData ?? { columns: [], rowCount: 0, data: {} })[0];
  return (
    <output aria-label="Preview, last 30 days" className="or-data-model-preview">
      {formatValue(row?.[metric.id ?? ''], (metric.format ?? 'number') as Parameters<typeof formatValue>[1], locale)}
    </output>
  );
}
