import { Callout, Card, Tab, Tabs } from '@blueprintjs/core';
import { type MouseEvent, useEffect, useMemo, useState } from 'react';
import { type Locale } from '../../../contracts/common';
import { type DatasetSchema, type Field } from '../../../contracts/datasets';
import { formatValue } from '../../../engine/format';
import { useSubscriberGrowthQuery } from '../../../store/engineApi';
import { usePlotPreload } from '../../charts/Plot';
import { DatasetGate } from '../DatasetGate';
import { GraphChart } from '../GraphChart';
import { useWidgetPriority } from '../queryPriority';
import { type WidgetContext, type WidgetProps } from '../types';
import { fieldsOf, widgetQueryScope } from '../widgetQuery';
import { WidgetEmpty, WidgetLoading } from '../WidgetStates';
import { LIST_FIELD, LIST_METRICS } from './defaults';
import {
  LIST_MEMBERS_FLAG,
  type ListGrowth,
  SUBSCRIBER_CARD_HEIGHT,
  SUBSCRIBER_TAB_CHART_HEIGHT,
  type SubscriberGrowthModel,
  membersGraph,
  subscriberGrowthModel,
  subscriberMessages,
} from './subscriberGrowthModel';
import '../graphs.css';

const summaryStats = [
  { key: 'members', label: 'Members' },
  { key: 'in', label: 'In' },
  { key: 'out', label: 'Out' },
  { key: 'delta', label: 'Delta' },
] as const;

function ListSummaryStats({ growth, locale }: { growth: ListGrowth; locale: Locale }) {
  return (
    <dl className="or-subscriber-summary">
      {summaryStats.map((stat) => (
        <div key={stat.key}>
          <dt className="or-subscriber-stat-label">{stat.label}</dt>
          <dd className="or-subscriber-stat-value">{formatValue(growth.summary[stat.key], 'number', locale)}</dd>
        </div>
      ))}
    </dl>
  );
}

interface DisplayProps {
  model: SubscriberGrowthModel;
  members: Field;
  locale: Locale;
}

function ListTabs({
  model,
  members,
  locale,
  autofocus,
  collapsible,
}: DisplayProps & { autofocus: boolean; collapsible: boolean }) {
  const first = model.lists[0]?.list;
  const [selected, setSelected] = useState<string | null>(autofocus ? (first ?? null) : null);
  // Tabs reports only changes; a click on the open tab itself is caught here (list layout only, spec 2).
  const collapseOpenTab = (event: MouseEvent<HTMLDivElement>) => {
    const tab = (event.target as HTMLElement).closest('[role="tab"]');
    if (collapsible && tab && tab.getAttribute('aria-selected') === 'true') setSelected(null);
  };
  return (
    <div onClick={collapseOpenTab}>
      <Tabs
        id="subscriber-growth"
        // Nothing is open until a list is picked when autofocus of the first tab is disabled.
        selectedTabId={selected ?? ''}
        onChange={(id) => setSelected(String(id))}
        renderActiveTabPanelOnly
      >
        {model.lists.map((growth) => (
          <Tab
            key={growth.list}
            id={growth.list}
            title={growth.list}
            panel={
              <div>
                <ListSummaryStats growth={growth} locale={locale} />
                <GraphChart
                  model={membersGraph(model, growth, members)}
                  locale={locale}
                  title={`${growth.list} members`}
                  height={SUBSCRIBER_TAB_CHART_HEIGHT}
                />
              </div>
            }
          />
        ))}
      </Tabs>
    </div>
  );
}

function ListCards({ model, members, locale }: DisplayProps) {
  return (
    <div className="or-subscriber-cards">
      {model.lists.map((growth) => (
        <Card key={growth.list} className="or-subscriber-card" aria-label={growth.list}>
          <h4>{growth.list}</h4>
          <ListSummaryStats growth={growth} locale={locale} />
          <GraphChart
            model={membersGraph(model, growth, members)}
            locale={locale}
            title={`${growth.list} members`}
            height={SUBSCRIBER_CARD_HEIGHT - 80}
          />
        </Card>
      ))}
    </div>
  );
}

interface ViewProps {
  widget: WidgetProps['widget'];
  context: WidgetContext;
  schema: DatasetSchema;
  version: string;
  lists: string[];
}

function SubscriberGrowthView({ widget, context, schema, version, lists }: ViewProps) {
  const [members] = fieldsOf(schema, ['members'], 'metric');
  const metrics = fieldsOf(schema, LIST_METRICS, 'metric').map((field) => field.id);
  const hasListField = fieldsOf(schema, [LIST_FIELD], 'dimension').length > 0;
  const usable = members !== undefined && hasListField;
  const scope = widgetQueryScope(widget, context, schema);
  const result = useSubscriberGrowthQuery(
    {
      workspaceId: context.scope.workspaceId,
      query: {
        kind: 'subscriberGrowth',
        ...scope,
        // The summary is of the main range only.
        compare: undefined,
        listField: LIST_FIELD,
        metrics,
        lists,
        granularity: 'auto',
        weekStart: context.weekStart,
      },
      version,
      supersedeKey: widget.id,
      priority: useWidgetPriority(),
    },
    { skip: !usable },
  );
  const data = result.currentData;
  const { ranges, weekStart, locale } = context;
  const model = useMemo(
    () => data && subscriberGrowthModel({ result: data, lists, range: ranges.main, weekStart }),
    [data, lists, ranges.main, weekStart],
  );
  const failed = result.isError || !usable;
  useEffect(() => {
    if (failed) console.error('Subscriber growth query failed', result.error ?? 'list_members fields missing');
  }, [failed, result.error]);

  if (failed) {
    return (
      <Callout intent="danger" role="alert" compact>
        {subscriberMessages.fetchFailed}
      </Callout>
    );
  }
  if (!model || !members) return <WidgetLoading />;
  return widget.visualizationSettings?.display?.type === 'card' ? (
    <ListCards model={model} members={members} locale={locale} />
  ) : (
    <ListTabs
      model={model}
      members={members}
      locale={locale}
      autofocus={!widget.disableAutofocusFirstTab}
      collapsible={context.listLayout === true}
    />
  );
}

/**
 * Members, ins and outs of the chosen lists over the dashboard's range (spec 2 §2, §3): a tab per list
 * with its summary and members chart, or a grid of cards. Needs the workspace's list_members feature.
 */
export function SubscriberGrowthWidget({ widget, context }: WidgetProps) {
  usePlotPreload();
  const lists = useMemo(() => widget.filteredLists ?? [], [widget.filteredLists]);
  if (!context.flags.includes(LIST_MEMBERS_FLAG)) {
    return <WidgetEmpty icon="disable" title={subscriberMessages.unsupported} />;
  }
  if (!lists.length) {
    return <WidgetEmpty title={subscriberMessages.noList} description={subscriberMessages.noListHint} />;
  }
  return (
    <DatasetGate widget={widget} scope={context.scope}>
      {(schema, version) => (
        <SubscriberGrowthView widget={widget} context={context} schema={schema} version={version} lists={lists} />
      )}
    </DatasetGate>
  );
}
