import { Button, InputGroup, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { type Workspace } from '../../../contracts/workspaces';
import { sortedWorkspaces, SWITCHER_MIN, SWITCHER_SEARCH_ABOVE } from '../useCurrentWorkspace';

export interface WorkspaceSwitcherProps {
  /** Every workspace of the user. */
  workspaces: readonly Workspace[];
  /** The workspace shown now. */
  current: Workspace;
}

/** Lists the user's workspaces by display name; searchable above 10, disabled below 2. */
export function WorkspaceSwitcher({ workspaces, current }: WorkspaceSwitcherProps) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const sorted = sortedWorkspaces(workspaces);
  const searchable = sorted.length > SWITCHER_SEARCH_ABOVE;
  const needle = query.trim().toLowerCase();
  const shown = needle ? sorted.filter((workspace) => workspace.displayName.toLowerCase().includes(needle)) : sorted;

  return (
    <PopoverNext
      shouldReturnFocusOnClose={false}
      isOpen={open}
      onInteraction={setOpen}
      placement="right-start"
      disabled={sorted.length < SWITCHER_MIN}
      content={
        <div className="or-switcher">
          {searchable && (
            <InputGroup
              leftIcon="search"
              placeholder="Search workspaces"
              aria-label="Search workspaces"
              value={query}
              onValueChange={setQuery}
              autoFocus
            />
          )}
          <Menu aria-label="Workspaces">
            {shown.map((workspace) => (
              <MenuItem
                key={workspace.id}
                text={workspace.displayName}
                active={workspace.id === current.id}
                onClick={() => {
                  setOpen(false);
                  navigate(`/workspaces/${workspace.id}`);
                }}
              />
            ))}
          </Menu>
        </div>
      }
    >
      <Button
        className="or-switcher-button"
        variant="minimal"
        alignText="left"
        endIcon={sorted.length < SWITCHER_MIN ? undefined : 'caret-down'}
        disabled={sorted.length < SWITCHER_MIN}
        text={current.displayName}
        aria-label={`Switch workspace: ${current.displayName}`}
        title={current.displayName}
      />
    </PopoverNext>
  );
}
