import { Button, ContextMenu, EditableText, Icon, Menu, MenuItem } from '@blueprintjs/core';
import { type UnknownAction } from '@reduxjs/toolkit';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector, useAppStore } from '../../../store/hooks';
import { can, useGetReportsQuery } from '../reportsApi';
import { selectAccessLevelOf } from '../state/selectors';
import {
  allTabsClosed,
  homeTabOpened,
  otherTabsClosed,
  selectWorkspaceTabs,
  sameTab,
  tabClosed,
  type ReportTab,
  type ReportTabRef,
} from '../state/tabsSlice';
import { reportPath, useReportActions } from '../useReportActions';
import { ReportTypeIcon, TruncatedLabel } from './ReportLabel';
import './TabStrip.css';

export interface TabStripProps {
  workspaceId: number;
}

const keyOf = (tab: ReportTabRef) => `${tab.objectType}/${tab.objectId}`;

/**
 * The workspace's open reports (spec 2 §2 Tab strip): the fixed Home tab first, then one tab per report. A click
 * goes to the tab's route; closing moves to whichever tab the slice focuses next.
 * Long because its tabs' close, rename and menu actions share the strip's focus and editing state, and each is a few
 * lines.
 */
export function TabStrip({ workspaceId }: TabStripProps) {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const navigate = useNavigate();
  const { tabs, active } = useAppSelector((state) => selectWorkspaceTabs(state, workspaceId));
  useGetReportsQuery(workspaceId);
  const accessLevelOf = useAppSelector((state) => selectAccessLevelOf(state, workspaceId));
  const actions = useReportActions(workspaceId);
  const [editing, setEditing] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const activeKey = active ? keyOf(active) : 'home';

  // With many tabs the strip scrolls: keep the focused one in view. Asked of an IntersectionObserver, which answers
  // after the browser's own layout, and scrolled only when the tab is not wholly in view: reading the strip's
  // geometry here (scrollIntoView does) forced a layout of the whole page at every change of tab, in the middle of a
  // report's rendering (26–51 ms of the main thread in profiles of a cold open).
  useEffect(() => {
    const list = listRef.current;
    const tab = list?.querySelector('[aria-selected="true"]');
    if (!list || !tab || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        observer.disconnect();
        if (entry.intersectionRatio < 1) tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      },
      { root: list, threshold: 1 },
    );
    observer.observe(tab);
    return () => observer.disconnect();
  }, [activeKey]);

  const pathOf = (tab: ReportTabRef | null) =>
    reportPath(workspaceId, tab && { type: tab.objectType, id: tab.objectId });
  const levelOf = (tab: ReportTabRef) => accessLevelOf(tab.objectType, tab.objectId);

  /** Dispatches a closing event and, when it moved the focus, follows it to the newly focused tab's route. */
  function closeAndFollow(action: UnknownAction) {
    const before = pathOf(selectWorkspaceTabs(store.getState(), workspaceId).active);
    dispatch(action);
    const after = pathOf(selectWorkspaceTabs(store.getState(), workspaceId).active);
    if (after !== before) navigate(after);
  }

  function rename(tab: ReportTab, title: string) {
    setEditing(null);
    void actions.rename({ type: tab.objectType, id: tab.objectId, title: tab.title }, title);
  }

  const startRenaming = (tab: ReportTab) => {
    if (can.write(levelOf(tab))) setEditing(keyOf(tab));
  };

  return (
    <div className="or-tab-strip">
      <div ref={listRef} role="tablist" aria-label="Open reports" className="or-tabs">
        <div
          role="tab"
          aria-label="Home"
          aria-selected={active === null}
          tabIndex={0}
          className="or-tab or-tab-home"
          onClick={() => navigate(pathOf(null))}
          onKeyDown={(event) => event.key === 'Enter' && navigate(pathOf(null))}
        >
          <Icon icon="home" />
        </div>
        {tabs.map((tab) => {
          const ref = { workspaceId, objectType: tab.objectType, objectId: tab.objectId };
          const title = tab.title || 'Loading…';
          const isActive = sameTab(tab, active);
          return (
            <ContextMenu
              key={keyOf(tab)}
              className={`or-tab${isActive ? ' or-tab-active' : ''}`}
              content={
                <Menu>
                  <MenuItem text="Close" onClick={() => closeAndFollow(tabClosed(ref))} />
                  <MenuItem text="Close others" onClick={() => closeAndFollow(otherTabsClosed(ref))} />
                  <MenuItem text="Close all" onClick={() => closeAndFollow(allTabsClosed({ workspaceId }))} />
                  <MenuItem text="Rename" disabled={!can.write(levelOf(tab))} onClick={() => startRenaming(tab)} />
                </Menu>
              }
            >
              {editing === keyOf(tab) ? (
                <EditableText
                  className="or-tab-title"
                  defaultValue={tab.title}
                  isEditing
                  selectAllOnFocus
                  customInputAttributes={{ 'aria-label': 'Report name' }}
                  onConfirm={(value) => rename(tab, value)}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <div
                  role="tab"
                  aria-label={title}
                  aria-selected={isActive}
                  aria-keyshortcuts="Delete"
                  tabIndex={0}
                  className="or-tab-title"
                  onClick={() => navigate(pathOf(tab))}
                  onDoubleClick={() => startRenaming(tab)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') navigate(pathOf(tab));
                    // WAI-ARIA's tabs pattern: Delete closes the focused tab.
                    if (event.key === 'Delete') closeAndFollow(tabClosed(ref));
                  }}
                >
                  <ReportTypeIcon type={tab.objectType} />
                  <TruncatedLabel text={title} />
                </div>
              )}
              {/* A tablist may hold only tabs: the cross is for the mouse, keyboards and screen readers close
                  with Delete or the context menu (WAI-ARIA tabs pattern). */}
              <Button
                variant="minimal"
                size="small"
                icon="cross"
                aria-hidden
                tabIndex={-1}
                title={`Close ${title}`}
                onClick={() => closeAndFollow(tabClosed(ref))}
              />
            </ContextMenu>
          );
        })}
      </div>
      <Button
        variant="minimal"
        icon="plus"
        aria-label="Open Home tab"
        title="Open Home tab"
        onClick={() => {
          dispatch(homeTabOpened({ workspaceId }));
          navigate(pathOf(null));
        }}
      />
    </div>
  );
}
