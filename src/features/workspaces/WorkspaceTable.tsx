import { HTMLTable } from '@blueprintjs/core';
import { type ReactNode } from 'react';
import { type WorkspaceSummary } from '../../contracts/workspaces';

interface WorkspaceTableProps {
  workspaces: WorkspaceSummary[];
  /** A click on a row opens that workspace (the agency page). */
  onOpen?: (id: number) => void;
  /** The name cell's content, where the name itself does something (the staff page's pick buttons). */
  renderName?: (workspace: WorkspaceSummary) => ReactNode;
}

/** Workspaces with their status, licence holder and member count: the agency page's and the staff page's list. */
export function WorkspaceTable({ workspaces, onOpen, renderName }: WorkspaceTableProps) {
  return (
    <HTMLTable className="or-members-table" striped interactive={onOpen !== undefined}>
      <thead>
        <tr>
          <th>Name</th>
          <th>Status</th>
          <th>Licence</th>
          <th>Members</th>
        </tr>
      </thead>
      <tbody>
        {workspaces.map((workspace) => (
          <tr key={workspace.id} onClick={onOpen ? () => onOpen(workspace.id) : undefined}>
            <td>{renderName ? renderName(workspace) : workspace.name}</td>
            <td>{workspace.status}</td>
            <td>{workspace.licenseHolder ?? ''}</td>
            <td>{workspace.memberCount}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
