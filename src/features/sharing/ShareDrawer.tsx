import './sharing.css';
import {
  Button,
  Callout,
  Checkbox,
  Classes,
  FormGroup,
  H5,
  InputGroup,
  NonIdealState,
  Spinner,
  Switch,
} from '@blueprintjs/core';
import { useState } from 'react';
import { type AccessLevel, type PermissionBody, type ReportType } from '../../contracts/reports';
import { useGetMembersQuery } from '../members/membersApi';
import { useCopyToClipboard } from '../notifications/useCopyToClipboard';
import { can, useGetPermissionsQuery, useGetReportQuery, useSetPermissionMutation } from '../reports/reportsApi';
import { errorCode, errorStatus } from '../session/apiErrors';
import { LevelPicker } from './LevelPicker';
import {
  entryChange,
  LEVEL_CHOICES,
  levelChoicesFor,
  levelLabel,
  matchingPeople,
  memberGrant,
  NO_ONE_LEFT_MESSAGE,
  NO_PERMISSION_MESSAGE,
  peopleToShareWith,
  publicLinkChange,
  publicLinkEntry,
  publicLinkUrl,
  SHARE_LEVEL_DESCRIPTIONS,
  shareDisabled,
  shareEntries,
  shareLevelOf,
  shareTargetOf,
  type ShareEntry,
} from './shareRules';

/** Shown when the server refuses a change without saying why. */
const FAILED_TO_SHARE = 'Failed to update sharing';

export interface ShareDrawerBodyProps {
  workspaceId: number;
  /** The report's type as the URL names it (drawer.objectType). */
  objectType: string | null;
  /** The report's id as the URL names it (drawer.objectId). */
  objectId: string | null;
  /** The signed-in user: listed first with '(You)', never offered and never able to change their own level. */
  currentUserId: number;
}

/** The body of the 'Sharing' drawer (spec 2 §2 Drawers) for the report its URL parameters name. */
export function ShareDrawerBody({ workspaceId, objectType, objectId, currentUserId }: ShareDrawerBodyProps) {
  const target = shareTargetOf(objectType, objectId);
  if (!target) return <NonIdealState icon="search" title="View not found" />;
  return <ShareSettings workspaceId={workspaceId} type={target.type} id={target.id} currentUserId={currentUserId} />;
}

interface ShareSettingsProps {
  workspaceId: number;
  type: ReportType;
  id: number;
  currentUserId: number;
}

/**
 * Who has which level, the people picker, and the public link (spec 2 §6). Changes need share access (full
 * access); others see the list read-only.
 * Long because the grant form, the entry list and the public link read the same report, permissions and selection
 * state; to be split into those three parts.
 */
function ShareSettings({ workspaceId, type, id, currentUserId }: ShareSettingsProps) {
  const ref = { workspaceId, type, id };
  const report = useGetReportQuery(ref);
  const permissions = useGetPermissionsQuery(ref);
  const canShare = report.data !== undefined && can.share(report.data.access_level);
  const members = useGetMembersQuery(workspaceId, { skip: !canShare });
  const [setPermission, { isLoading: busy }] = useSetPermissionMutation();
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [grantLevel, setGrantLevel] = useState<AccessLevel>('read');
  const [search, setSearch] = useState('');
  const [copied, setCopied] = useState(false);
  const copy = useCopyToClipboard();

  if (report.isLoading || permissions.isLoading) return <Spinner className="or-share-spinner" />;
  const failure = report.error ?? permissions.error;
  if (failure || !report.data || !permissions.data) {
    const status = errorStatus(failure);
    // The server answers 404 for a report the user may not see at all, so both mean no permission.
    if (status === 403 || status === 404) return <NonIdealState icon="lock" title={NO_PERMISSION_MESSAGE} />;
    return (
      <NonIdealState
        icon="error"
        title="The sharing settings could not be loaded"
        action={
          <Button
            text="Try again"
            onClick={() => {
              void report.refetch();
              void permissions.refetch();
            }}
          />
        }
      />
    );
  }

  const entries = permissions.data;
  const object = { type: report.data.type, id: report.data.id };
  const rows = shareEntries(entries, currentUserId, canShare);
  const people = peopleToShareWith(members.data ?? [], entries, currentUserId);
  const shown = matchingPeople(people, search);
  const link = publicLinkEntry(entries);

  /** Sends one change; a refusal is shown and leaves the drawer as it was. */
  const apply = async (change: { permissionId?: number; body: PermissionBody } | null): Promise<boolean> => {
    if (!change) return true;
    setError(null);
    try {
      await setPermission({ workspaceId, ...change }).unwrap();
      return true;
    } catch (caught) {
      setError(errorCode(caught) ?? FAILED_TO_SHARE);
      return false;
    }
  };

  // One call per member; those granted leave the selection, so a failure keeps the rest chosen for a retry.
  const share = async () => {
    for (const memberId of chosen) {
      if (!(await apply(memberGrant(memberId, grantLevel, object)))) return;
      setChosen((current) => current.filter((id) => id !== memberId));
    }
    setSearch('');
  };

  const toggleChosen = (memberId: number) =>
    setChosen((current) =>
      current.includes(memberId) ? current.filter((id) => id !== memberId) : [...current, memberId],
    );

  const copyLink = async (url: string) => {
    if (await copy(url)) setCopied(true);
    else setError('The link could not be copied; select it and copy it yourself');
  };

  const entryRow = (entry: ShareEntry) => (
    <li key={entry.key} className="or-share-entry">
      <span className="or-share-name">{entry.name}</span>
      {entry.editable ? (
        <LevelPicker
          level={entry.level}
          choices={levelChoicesFor(entry)}
          ariaLabel={`Access of ${entry.name}`}
          disabled={busy}
          onChange={(level) => void apply(entryChange(entry, level, object))}
        />
      ) : (
        <span className={Classes.TEXT_MUTED}>{levelLabel(entry.level)}</span>
      )}
    </li>
  );

  const url = publicLinkUrl(window.location.origin, report.data.id);
  return (
    <div className={Classes.DRAWER_BODY}>
      <div className={`${Classes.DIALOG_BODY} or-share`}>
        <H5>{report.data.title}</H5>
        <p className="or-share-level">{SHARE_LEVEL_DESCRIPTIONS[shareLevelOf(entries)]}</p>
        {!canShare && (
          <Callout intent="warning" icon="lock">
            {NO_PERMISSION_MESSAGE}
          </Callout>
        )}
        {error && (
          <Callout intent="danger" role="alert">
            {error}
          </Callout>
        )}
        {canShare && (
          <section aria-label="Add people">
            {members.isLoading ? (
              <Spinner size={20} />
            ) : members.isError ? (
              <Callout intent="danger">The members of this workspace could not be loaded</Callout>
            ) : people.length === 0 ? (
              <p className={Classes.TEXT_MUTED}>{NO_ONE_LEFT_MESSAGE}</p>
            ) : (
              <>
                <FormGroup label="Add people" labelFor="or-share-search">
                  <InputGroup
                    id="or-share-search"
                    type="search"
                    leftIcon="search"
                    placeholder="Search by name or e-mail"
                    value={search}
                    onChange={(event) => setSearch(event.target.value)}
                  />
                </FormGroup>
                <div className="or-share-people">
                  {shown.map((member) => (
                    <Checkbox
                      key={member.id}
                      checked={chosen.includes(member.id)}
                      onChange={() => toggleChosen(member.id)}
                      labelElement={
                        <>
                          {member.name} <span className={Classes.TEXT_MUTED}>{member.email}</span>
                        </>
                      }
                    />
                  ))}
                </div>
                <div className="or-share-actions">
                  <LevelPicker
                    level={grantLevel}
                    choices={LEVEL_CHOICES}
                    ariaLabel="Access of the people chosen"
                    onChange={setGrantLevel}
                  />
                  <Button
                    intent="primary"
                    text="Share"
                    disabled={shareDisabled(chosen, busy)}
                    loading={busy && chosen.length > 0}
                    onClick={() => void share()}
                  />
                </div>
              </>
            )}
          </section>
        )}
        <section aria-label="People with access">
          <ul className="or-share-entries">{rows.map(entryRow)}</ul>
        </section>
        <section aria-label="Public link" className="or-share-public">
          <Switch
            role="switch"
            label="Public link"
            checked={link !== null}
            disabled={!canShare || busy}
            onChange={(event) => {
              setCopied(false);
              void apply(publicLinkChange(entries, event.currentTarget.checked, object));
            }}
          />
          {link !== null && (
            <InputGroup
              readOnly
              aria-label="Public link address"
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              rightElement={
                <Button
                  variant="minimal"
                  icon={copied ? 'tick' : 'duplicate'}
                  text={copied ? 'Copied' : 'Copy link'}
                  onClick={() => void copyLink(url)}
                />
              }
            />
          )}
        </section>
      </div>
    </div>
  );
}
