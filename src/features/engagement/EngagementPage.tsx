import { Button, HTMLSelect, NonIdealState, Spinner } from '@blueprintjs/core';
import { useEffect, useMemo, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { NotFoundPage } from '../../app/pages/NotFoundPage';
import { engagementSegments, type EngagementSegmentId } from '../../contracts/catalogue';
import { type Workspace } from '../../contracts/workspaces';
import { engagementCsvFileName } from '../../engine/csv';
import {
  type ResultColumns,
  engineApi,
  useEngagementMonthsQuery,
  useEngagementSegmentTableQuery,
} from '../../store/engineApi';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { DATASET_FETCH_ERROR, selectDatasetEntry } from '../datasets/datasetsSlice';
import { loadDataset } from '../datasets/loadDataset';
import { useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { useGetWorkspaceFlagsQuery } from '../workspaces/workspacesApi';
import { type ContactRow, engagementCsvBlob, saveBlob } from './downloadCsv';
import {
  type EngagementIntegration,
  type SegmentTableRow,
  engagementPath,
  flowModel,
  integrationsOf,
  monthOptions,
  monthSteps,
  resolveEngagementRoute,
} from './engagementModel';
import { FlowDiagram } from './FlowDiagram';
import { SegmentTable } from './SegmentTable';
import { Waffle } from './Waffle';
import './engagement.css';

const SEGMENTS_DATASET = 'engagement_segments';
const CONTACTS_DATASET = 'engagement_contacts';
export const ENGAGEMENT_UNAVAILABLE = 'Engagement is not available for this workspace';

/** Engine result columns as row objects. */
function rowsOf<T>(result: ResultColumns | undefined): T[] {
  if (!result) return [];
  return Array.from(
    { length: result.rowCount },
    (_, i) => Object.fromEntries(result.columns.map((column) => [column, result.data[column][i]])) as T,
  );
}

const fetchError = <NonIdealState icon="error" title={DATASET_FETCH_ERROR} />;
const loading = <Spinner aria-label="Loading engagement" />;

/** The dataset's version once downloaded (loading it on first need), or its state. */
function useDataset(workspaceId: number, datasetId: string): { version?: string; failed: boolean } {
  const dispatch = useAppDispatch();
  const entry = useAppSelector((state) => selectDatasetEntry(state, workspaceId, datasetId));
  useEffect(() => {
    void dispatch(loadDataset({ workspaceId, datasetId }));
  }, [dispatch, workspaceId, datasetId]);
  return { version: entry?.version, failed: entry?.status === 'error' && (!entry.version || !!entry.kept) };
}

/** /workspaces/{id}/engagement[/{integrationId}/{date}] (spec 3 §2): only with the workspace's 'engagement' flag. */
export function EngagementPage() {
  const workspace = useCurrentWorkspace();
  const { data: flags, isError } = useGetWorkspaceFlagsQuery(workspace.id);
  if (isError) return fetchError;
  if (!flags) return loading;
  if (!flags.includes('engagement')) return <NotFoundPage />;
  return <EngagementRoute workspace={workspace} />;
}

function EngagementRoute({ workspace }: { workspace: Workspace }) {
  const params = useParams();
  const { version, failed } = useDataset(workspace.id, SEGMENTS_DATASET);
  const months = useEngagementMonthsQuery(
    { workspaceId: workspace.id, version, query: { kind: 'engagementMonths', dataset: SEGMENTS_DATASET } },
    { skip: !version },
  );
  const integrations = useMemo(
    () => integrationsOf(rowsOf<{ integration_id: string; integration_name: string; date: string }>(months.data)),
    [months.data],
  );
  if (failed || months.isError) return fetchError;
  if (!months.data) return loading;
  const route = resolveEngagementRoute(integrations, params);
  if (route.kind === 'unavailable') return <NonIdealState icon="people" title={ENGAGEMENT_UNAVAILABLE} />;
  if (route.kind === 'redirect')
    return <Navigate replace to={engagementPath(workspace.id, route.integrationId, route.date)} />;
  return (
    <EngagementView
      workspace={workspace}
      version={version!}
      integrations={integrations}
      integration={route.integration}
      date={route.date}
    />
  );
}

interface ViewProps {
  workspace: Workspace;
  version: string;
  integrations: EngagementIntegration[];
  integration: EngagementIntegration;
  date: string;
}

function EngagementView({ workspace, version, integrations, integration, date }: ViewProps) {
  const navigate = useNavigate();
  const [selected, setSelected] = useState<EngagementSegmentId>('engaged');
  const table = useEngagementSegmentTableQuery({
    workspaceId: workspace.id,
    version,
    query: { kind: 'engagementSegmentTable', dataset: SEGMENTS_DATASET, integrationId: integration.id, month: date },
  });
  const rows = useMemo(() => rowsOf<SegmentTableRow>(table.data), [table.data]);
  const download = useCsvDownload(workspace.id, integration.id, date);
  const options = monthOptions(integration.dates);
  const steps = monthSteps(options, date);
  const go = (integrationId: string, month: string) => navigate(engagementPath(workspace.id, integrationId, month));
  const segmentRows = rows.filter((row) => row.segment_id);
  const selectedName = engagementSegments.find((segment) => segment.id === selected)!.name;
  return (
    <div className="or-engagement">
      <div className="or-engagement-controls" role="toolbar" aria-label="Engagement month and integration">
        <Button
          icon="chevron-left"
          aria-label="Previous month"
          disabled={!steps.previous}
          onClick={() => steps.previous && go(integration.id, steps.previous)}
        />
        <HTMLSelect
          aria-label="Month"
          value={date}
          options={options}
          onChange={(event) => go(integration.id, event.currentTarget.value)}
        />
        <Button
          icon="chevron-right"
          aria-label="Next month"
          disabled={!steps.next}
          onClick={() => steps.next && go(integration.id, steps.next)}
        />
        {integrations.length > 1 && (
          <HTMLSelect
            aria-label="Integration"
            value={integration.id}
            options={integrations.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
            onChange={(event) => {
              const next = integrations.find((candidate) => candidate.id === event.currentTarget.value)!;
              go(next.id, next.dates[next.dates.length - 1]);
            }}
          />
        )}
      </div>
      {table.isError || download.failed ? (
        fetchError
      ) : !table.data ? (
        loading
      ) : (
        <>
          <div className="or-engagement-charts">
            <Waffle sizes={segmentRows.map((row) => row.size)} locale={workspace.locale} />
            <FlowDiagram
              flow={flowModel(segmentRows.find((row) => row.segment_id === selected))}
              segmentName={selectedName}
              locale={workspace.locale}
            />
          </div>
          <SegmentTable
            rows={rows}
            locale={workspace.locale}
            selected={selected}
            onSelect={setSelected}
            onDownload={download.start}
            downloading={download.running}
          />
        </>
      )}
    </div>
  );
}

/** The CSV download of one segment or all, built in the browser from the contacts dataset, chunk by chunk. */
function useCsvDownload(workspaceId: number, integrationId: string, month: string) {
  const dispatch = useAppDispatch();
  const [requested, setRequested] = useState<{ segmentId?: EngagementSegmentId } | null>(null);
  const [failed, setFailed] = useState(false);
  const contacts = useDataset(workspaceId, CONTACTS_DATASET);
  useEffect(() => {
    if (!requested || !contacts.version) return;
    const segmentId = requested.segmentId;
    const segmentName = (id: string) => engagementSegments.find((segment) => segment.id === id)?.name ?? id;
    const fetchChunk = async (offset: number, limit: number) => {
      const query = {
        kind: 'engagementCsv',
        dataset: CONTACTS_DATASET,
        integrationId,
        month,
        segmentId,
        offset,
        limit,
      } as const;
      const result = await dispatch(
        engineApi.endpoints.engagementCsv.initiate(
          { workspaceId, version: contacts.version, query },
          { subscribe: false },
        ),
      ).unwrap();
      return rowsOf<ContactRow>(result);
    };
    engagementCsvBlob(fetchChunk, segmentName)
      .then((blob) => saveBlob(blob, engagementCsvFileName(month, segmentId && segmentName(segmentId))))
      .catch(() => setFailed(true))
      .finally(() => setRequested(null));
  }, [requested, contacts.version, dispatch, workspaceId, integrationId, month]);
  return {
    start: (segmentId?: EngagementSegmentId) => setRequested({ segmentId }),
    running: requested !== null,
    failed: failed || (requested !== null && contacts.failed),
  };
}
