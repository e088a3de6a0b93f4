import { H3, HTMLSelect, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { type ReportSummary } from '../../contracts/reports';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { localToday } from '../date-range/ranges';
import { openDrawerParams } from '../shell/drawers';
import { selectWorkspaceLocale, useCurrentUser, useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { useGetWorkspaceFlagsQuery } from '../workspaces/workspacesApi';
import { DeleteReportDialog, RenameReportDialog } from './components/ReportDialogs';
import { ReportList, type RowAction } from './components/ReportList';
import { TemplateStrip } from './components/TemplateStrip';
import { useGetReportsQuery } from './reportsApi';
import {
  reportListViewChanged,
  selectReportListView,
  type OwnershipFilter,
  type ReportListView,
  type ReportOrder,
} from './state/reportsListSlice';
import { selectReportGroups } from './state/selectors';
import { newReportTitle, templateConfig, templatesFor, type ReportTemplate } from './templates';
import { reportPath, useReportActions } from './useReportActions';

const orderOptions: { value: ReportOrder; label: string }[] = [
  { value: 'lastOpenedAt', label: 'Last opened' },
  { value: 'modifiedAt', label: 'Last modified' },
  { value: 'title', label: 'Title' },
];
const ownershipOptions: { value: OwnershipFilter; label: string }[] = [
  { value: 'anyone', label: 'Anyone' },
  { value: 'me', label: 'Me' },
  { value: 'notMe', label: 'Not by me' },
];
const typeOptions: { value: ReportListView['type']; label: string }[] = [
  { value: 'all', label: 'All types' },
  { value: 'dashboard', label: 'Dashboards' },
  { value: 'explorer_view', label: 'Explorer views' },
];

const NO_FLAGS: string[] = [];

type OpenDialog = { kind: 'rename' | 'delete'; report: ReportSummary } | null;

/** /workspaces/{id}/reports and the workspace index: templates and the report list (spec 2 §2 Reports home). */
export function ReportsHomePage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const user = useCurrentUser();
  const workspace = useCurrentWorkspace();
  const workspaceId = workspace.id;
  const locale = useAppSelector((state) => selectWorkspaceLocale(state, workspaceId));
  const view = useAppSelector((state) => selectReportListView(state, workspaceId));
  const { data: flags = NO_FLAGS, isUninitialized, isLoading: flagsLoading } = useGetWorkspaceFlagsQuery(workspaceId);
  // A dashboard's layout follows the flags: no creating from a template before they are known (or failed to load).
  const flagsPending = isUninitialized || flagsLoading;
  // The layout polls the list; this subscription shares its cache entry.
  const { data: reports, isLoading, isError } = useGetReportsQuery(workspaceId);
  const actions = useReportActions(workspaceId);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog>(null);

  const groups = useAppSelector((state) => selectReportGroups(state, workspaceId, search, user.memberId, localToday()));
  const changeView = (change: Partial<ReportListView>) =>
    dispatch(reportListViewChanged({ workspaceId, view: change }));

  async function create(template: ReportTemplate) {
    setCreating(true);
    const title = newReportTitle(template, new Date());
    const created = await actions.create(template.type, title, templateConfig(template, flags, title));
    setCreating(false);
    if (created) navigate(reportPath(workspaceId, created));
  }

  function act(action: RowAction, report: ReportSummary) {
    if (action === 'share') {
      setSearchParams(
        openDrawerParams(searchParams, 'share', { objectType: report.type, objectId: String(report.id) }),
      );
    } else if (action === 'duplicate') {
      void actions.duplicate(report);
    } else {
      setDialog({ kind: action, report });
    }
  }

  const filtered = search.trim() !== '' || view.ownership !== 'anyone' || view.type !== 'all';
  const body = listPlaceholder({ isLoading, isError, reports, matches: groups.length, filtered }) ?? (
    <ReportList workspaceId={workspaceId} groups={groups} locale={locale} onAction={act} />
  );

  return (
    <div className="or-reports-home">
      <TemplateStrip
        templates={templatesFor(flags)}
        busy={creating || flagsPending}
        onPick={(template) => void create(template)}
      />
      <section className="or-reports-section" aria-labelledby="or-reports-title">
        <ListControls search={search} onSearch={setSearch} view={view} onChange={changeView} />
        {body}
      </section>
      {dialog?.kind === 'rename' && (
        <RenameReportDialog
          title={dialog.report.title}
          onConfirm={(title) => void actions.rename(dialog.report, title)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteReportDialog onConfirm={() => void actions.remove(dialog.report)} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}

interface ListControlsProps {
  search: string;
  onSearch(search: string): void;
  view: ReportListView;
  onChange(change: Partial<ReportListView>): void;
}

/** The list's search and its stored filters and order (spec 2 §2 Reports home). */
function ListControls({ search, onSearch, view, onChange }: ListControlsProps) {
  return (
    <div className="or-reports-controls">
      <H3 id="or-reports-title">Reports</H3>
      <InputGroup
        type="search"
        leftIcon="search"
        placeholder="Search reports"
        aria-label="Search reports"
        value={search}
        onValueChange={onSearch}
      />
      <HTMLSelect
        aria-label="Created by"
        value={view.ownership}
        options={ownershipOptions}
        onChange={(event) => onChange({ ownership: event.currentTarget.value as OwnershipFilter })}
      />
      <HTMLSelect
        aria-label="Report type"
        value={view.type}
        options={typeOptions}
        onChange={(event) => onChange({ type: event.currentTarget.value as ReportListView['type'] })}
      />
      <HTMLSelect
        aria-label="Order by"
        value={view.order}
        options={orderOptions}
        onChange={(event) => onChange({ order: event.currentTarget.value as ReportOrder })}
      />
    </div>
  );
}

interface ListStatus {
  isLoading: boolean;
  isError: boolean;
  reports: readonly ReportSummary[] | undefined;
  matches: number;
  filtered: boolean;
}

/** What the list area shows instead of the list: loading, a failure, no reports, or none matching. */
function listPlaceholder({ isLoading, isError, reports, matches, filtered }: ListStatus) {
  if (isLoading) return <Spinner className="or-page-spinner" aria-label="Loading reports" />;
  if (isError && !reports)
    return <NonIdealState icon="error" title="Could not load the reports" description="Please try again later." />;
  if (!reports?.length)
    return (
      <NonIdealState
        icon="document"
        title="No reports yet"
        description="Create your first report from a template above."
      />
    );
  if (matches === 0)
    return (
      <NonIdealState
        icon="search"
        title="No matching reports"
        description={filtered ? 'No report matches your search and filters.' : undefined}
      />
    );
  return null;
}
