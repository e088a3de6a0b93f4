import { H4 } from '@blueprintjs/core';
import { type Workspace } from '../../../contracts/workspaces';
import { useCurrentWorkspace } from '../../shell/useCurrentWorkspace';

/** An agency workspace is known by its agency's name, any other by its own (spec 2 §2). */
const ownerName = (workspace: Workspace) =>
  workspace.licenseType === 'agency' && workspace.licenseHolder ? workspace.licenseHolder : workspace.displayName;

function WorkspaceAvatar({ workspace }: { workspace: Workspace }) {
  if (workspace.logo) {
    return <img className="or-report-avatar" src={`/api/assets/workspaces/${workspace.id}/${workspace.logo}`} alt="" />;
  }
  return (
    <span className="or-report-avatar" aria-hidden>
      {workspace.displayName.slice(0, 1).toUpperCase()}
    </span>
  );
}

export interface ReportTitleBarProps {
  /** The report's title as the local document has it. */
  title: string;
}

/** The report page's title bar: workspace avatar, agency or workspace name, report title. */
export function ReportTitleBar({ title }: ReportTitleBarProps) {
  const workspace = useCurrentWorkspace();
  return (
    <header className="or-report-title-bar">
      <WorkspaceAvatar workspace={workspace} />
      <span className="or-report-owner">{ownerName(workspace)}</span>
      <H4 className="or-report-title">{title}</H4>
    </header>
  );
}
