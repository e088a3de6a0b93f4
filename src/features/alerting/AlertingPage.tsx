import './alerting.css';
import {
  Alert,
  Button,
  Callout,
  H2,
  HTMLTable,
  InputGroup,
  Menu,
  MenuItem,
  NonIdealState,
  PopoverNext,
  Spinner,
} from '@blueprintjs/core';
import { createSelector } from '@reduxjs/toolkit';
import { useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  ALERT_SEARCH_DEBOUNCE_MS,
  newAlertRuleId,
  type AlertRule,
  type AlertViolation,
} from '../../contracts/alerting';
import { getCatalogueDataset } from '../../contracts/catalogue';
import { type Workspace } from '../../contracts/workspaces';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { closeDrawerParams, DRAWER_PREFIX, drawerFromParams, openDrawerParams } from '../shell/drawers';
import { useCurrentUser, useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { useSettled } from '../shell/useSettled';
import { AlertDrawer } from './AlertDrawer';
import { alertMessages, copyOfDraft, describeRule, draftOfRule, newAlertDraft } from './alertForm';
import { alertFormClosed, alertFormKey, alertFormOpened, selectAlertForm } from './alertFormSlice';
import {
  useDeleteAlertRuleMutation,
  useGetAlertResultsQuery,
  useGetAlertRulesQuery,
  useGetAlertViolationsQuery,
} from './alertingApi';
import { HistoryBar } from './HistoryBar';

export type RowState = 'disabled' | 'open' | 'ok';

/** Row colour (spec 3 §2): disabled grey, an open violation red, otherwise green. */
export const rowState = (rule: AlertRule, violations: readonly AlertViolation[]): RowState =>
  !rule.enabled
    ? 'disabled'
    : violations.some((violation) => violation.ruleId === rule.id && violation.status === 'open')
      ? 'open'
      : 'ok';

/** The rules whose title holds the search text, case aside. */
export const selectMatchingRules = createSelector(
  [
    (rules: readonly AlertRule[]) => rules,
    (_rules: readonly AlertRule[], search: string) => search.trim().toLowerCase(),
  ],
  (rules, search) => (search ? rules.filter((rule) => rule.title.toLowerCase().includes(search)) : rules),
);

function RuleHistory({ workspace, rule }: { workspace: Workspace; rule: AlertRule }) {
  const { data, isError } = useGetAlertResultsQuery({ workspaceId: workspace.id, ruleId: rule.id });
  const format = { schema: getCatalogueDataset(rule.dataset), locale: workspace.locale };
  if (isError) return <span className="or-alert-history-error">{alertMessages.historyFailed}</span>;
  if (!data) return <Spinner size={16} aria-label="Loading the history" />;
  return <HistoryBar days={data.results} label={`History of ${rule.title}`} format={format} />;
}

interface RowProps {
  workspace: Workspace;
  rule: AlertRule;
  state: RowState;
  modified: Intl.DateTimeFormat;
  onEdit(copy: boolean): void;
  onRemove(): void;
}

function RuleRow({ workspace, rule, state, modified, onEdit, onRemove }: RowProps) {
  return (
    <tr className={`or-alert-row-${state}`} data-state={state}>
      <td>
        <a
          role="button"
          tabIndex={0}
          onClick={() => onEdit(false)}
          onKeyDown={(e) => e.key === 'Enter' && onEdit(false)}
        >
          {rule.title}
        </a>
        <span className="or-alert-rule-sentence">{describeRule(draftOfRule(rule))}</span>
      </td>
      <td>
        <RuleHistory workspace={workspace} rule={rule} />
      </td>
      <td>{modified.format(new Date(rule.modifiedAt))}</td>
      <td>
        <PopoverNext
          shouldReturnFocusOnClose={false}
          placement="bottom-end"
          content={
            <Menu>
              <MenuItem icon="edit" text="Edit" onClick={() => onEdit(false)} />
              <MenuItem icon="duplicate" text="Duplicate" onClick={() => onEdit(true)} />
              <MenuItem icon="trash" text="Remove" intent="danger" onClick={onRemove} />
            </Menu>
          }
        >
          <Button variant="minimal" icon="more" aria-label={`Actions for ${rule.title}`} />
        </PopoverNext>
      </td>
    </tr>
  );
}

/**
 * Opens the drawer's form on what the URL names: /alerting/{alertId} or drawer.alertId edits that rule,
 * drawer.mode=copy a copy of it under a new id, no id a new rule with the spec's defaults.
 */
function useAlertForm(workspaceId: number, rules: readonly AlertRule[] | undefined) {
  const dispatch = useAppDispatch();
  const email = useCurrentUser().email;
  const { alertId: routeId } = useParams();
  const [params] = useSearchParams();
  const isOpen = routeId !== undefined || drawerFromParams(params).type === 'edit-alert';
  const alertId = routeId ?? params.get(`${DRAWER_PREFIX}alertId`);
  const copy = routeId === undefined && params.get(`${DRAWER_PREFIX}mode`) === 'copy';
  const rule = alertId ? rules?.find((candidate) => candidate.id === alertId) : undefined;
  const missing = Boolean(alertId && rules && !rule);
  const formKey = useAppSelector(selectAlertForm).key;

  useEffect(() => {
    if (!isOpen || (alertId && !rule)) return;
    const key = alertFormKey(workspaceId, alertId, copy);
    if (key === formKey) return;
    const base = rule ? draftOfRule(rule) : newAlertDraft(email);
    const ruleId = rule && !copy ? rule.id : newAlertRuleId();
    dispatch(alertFormOpened({ key, ruleId, draft: copy ? copyOfDraft(base) : base }));
  }, [dispatch, isOpen, alertId, rule, copy, workspaceId, email, formKey]);

  return { isOpen, missing };
}

interface RulesTableProps {
  workspace: Workspace;
  rules: readonly AlertRule[];
  violations: readonly AlertViolation[];
  onEdit(rule: AlertRule, copy: boolean): void;
  onRemove(rule: AlertRule): void;
}

/** The rules with their state, 30 days of history, last change and actions. */
function RulesTable({ workspace, rules, violations, onEdit, onRemove }: RulesTableProps) {
  const modified = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <HTMLTable className="or-alerting-table" interactive>
      <thead>
        <tr>
          <th>Title</th>
          <th>History (30 days)</th>
          <th>Last modified</th>
          <th aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {rules.map((rule) => (
          <RuleRow
            key={rule.id}
            workspace={workspace}
            rule={rule}
            state={rowState(rule, violations)}
            modified={modified}
            onEdit={(copy) => onEdit(rule, copy)}
            onRemove={() => onRemove(rule)}
          />
        ))}
      </tbody>
    </HTMLTable>
  );
}

/** The alerting list (spec 3 §2): search, 'Add alert', the rules with their history, and the edit drawer. */
export function AlertingPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const workspace = useCurrentWorkspace();
  const [params] = useSearchParams();
  const [search, setSearch] = useState('');
  const [removing, setRemoving] = useState<AlertRule | null>(null);
  const rules = useGetAlertRulesQuery(workspace.id);
  const { data: violations = [] } = useGetAlertViolationsQuery(workspace.id);
  const [remove] = useDeleteAlertRuleMutation();
  const { isOpen, missing } = useAlertForm(workspace.id, rules.data);

  const query = useSettled(search, ALERT_SEARCH_DEBOUNCE_MS);

  const listPath = `/workspaces/${workspace.id}/alerting`;
  const openDrawer = (extra: Record<string, string>) =>
    navigate({ pathname: listPath, search: openDrawerParams(params, 'edit-alert', extra).toString() });
  const close = () => {
    dispatch(alertFormClosed());
    navigate({ pathname: listPath, search: closeDrawerParams(params).toString() });
  };
  const shown = selectMatchingRules(rules.data ?? [], query);

  return (
    <div className="or-alerting-page">
      <H2>Alerting</H2>
      <div className="or-alerting-toolbar">
        <InputGroup
          type="search"
          leftIcon="search"
          placeholder="Search alerts"
          aria-label="Search alerts"
          value={search}
          onValueChange={setSearch}
        />
        <Button icon="add" intent="primary" text="Add alert" onClick={() => openDrawer({})} />
      </div>
      {rules.isError && <Callout intent="danger">Unknown error</Callout>}
      {rules.isLoading && <Spinner className="or-page-spinner" />}
      {rules.data && (
        <RulesTable
          workspace={workspace}
          rules={shown}
          violations={violations}
          onEdit={(rule, copy) => openDrawer(copy ? { alertId: rule.id, mode: 'copy' } : { alertId: rule.id })}
          onRemove={setRemoving}
        />
      )}
      {missing ? (
        <AlertDrawerMissing onClose={close} />
      ) : (
        <AlertDrawer isOpen={isOpen} workspaceId={workspace.id} onDone={close} />
      )}
      <Alert
        isOpen={removing !== null}
        intent="danger"
        icon="trash"
        confirmButtonText="Remove"
        cancelButtonText="Cancel"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) void remove({ workspaceId: workspace.id, ruleId: removing.id });
          setRemoving(null);
        }}
      >
        <p>{alertMessages.removeConfirm}</p>
      </Alert>
    </div>
  );
}

function AlertDrawerMissing({ onClose }: { onClose(): void }) {
  return (
    <NonIdealState
      icon="search"
      title="Alert rule not found"
      action={<Button text="Back to alerting" onClick={onClose} />}
    />
  );
}
