import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { type ReportType } from '../../../contracts/reports';
import { signedInUserChanged, signedOut } from '../../session/sessionActions';

/** Spec 2 §9: at most 200 open report tabs per workspace. */
export const MAX_TABS = 200;

export interface ReportTabRef {
  objectType: ReportType;
  objectId: number;
}

export interface ReportTab extends ReportTabRef {
  title: string;
  /**
   * When the tab was opened (ms since epoch). A report list requested before then may not know the report yet
   * (it was just created), so such a list never closes the tab.
   */
  openedAt: number;
}

/** One workspace's strip: the fixed Home tab is implied; `active` null means Home is focused. */
export interface WorkspaceTabs {
  tabs: ReportTab[];
  active: ReportTabRef | null;
}

export interface TabsState {
  /** Keyed by workspace id. */
  byWorkspace: Record<string, WorkspaceTabs>;
}

export const initialTabsState: TabsState = { byWorkspace: {} };

const EMPTY: WorkspaceTabs = { tabs: [], active: null };

export const sameTab = (a: ReportTabRef | null, b: ReportTabRef | null): boolean =>
  a !== null && b !== null && a.objectType === b.objectType && a.objectId === b.objectId;

interface InWorkspace {
  workspaceId: number;
}
type TabPayload = InWorkspace & ReportTabRef;
type NewTabPayload = TabPayload & { title: string; openedAt: number };

function workspaceTabs(state: TabsState, workspaceId: number): WorkspaceTabs {
  const key = String(workspaceId);
  state.byWorkspace[key] ??= { tabs: [], active: null };
  return state.byWorkspace[key];
}

/** Adds a tab at the end unless it is open already or the strip is full; true when the tab is (now) open. */
function addTab(strip: WorkspaceTabs, { objectType, objectId, title, openedAt }: NewTabPayload): boolean {
  if (strip.tabs.some((tab) => sameTab(tab, { objectType, objectId }))) return true;
  if (strip.tabs.length >= MAX_TABS) return false;
  strip.tabs.push({ objectType, objectId, title, openedAt });
  return true;
}

/** Closes the tabs `closing` selects; focus moves to the next remaining tab, else the previous, else Home. */
function closeTabs(strip: WorkspaceTabs, closing: (tab: ReportTab) => boolean) {
  // The list is polled every 10 s: an answer that closes nothing must leave the state (and the strip) untouched.
  if (!strip.tabs.some(closing)) return;
  const activeIndex = strip.tabs.findIndex((tab) => sameTab(tab, strip.active));
  const activeCloses = activeIndex >= 0 && closing(strip.tabs[activeIndex]);
  if (activeCloses) {
    const next = strip.tabs.slice(activeIndex + 1).find((tab) => !closing(tab));
    const previous = strip.tabs
      .slice(0, activeIndex)
      .reverse()
      .find((tab) => !closing(tab));
    const focus = next ?? previous;
    strip.active = focus ? { objectType: focus.objectType, objectId: focus.objectId } : null;
  }
  strip.tabs = strip.tabs.filter((tab) => !closing(tab));
}

/** Stamps the opening time on a tab action, keeping the reducer pure. */
const stamped = <P extends TabPayload & { title?: string }>(payload: P) => ({
  payload: { ...payload, title: payload.title ?? '', openedAt: Date.now() },
});

const tabsSlice = createSlice({
  name: 'tabs',
  initialState: initialTabsState,
  reducers: {
    /** Spec 2 §4 add: ignored when the report is open already or 200 tabs are open; focus does not move. */
    tabAdded: {
      reducer(state, action: PayloadAction<NewTabPayload>) {
        addTab(workspaceTabs(state, action.payload.workspaceId), action.payload);
      },
      prepare: (payload: TabPayload & { title?: string }) => stamped(payload),
    },
    /** Spec 2 §4 open: focuses the report's tab, adding it first when needed (and possible). */
    tabOpened: {
      reducer(state, action: PayloadAction<NewTabPayload>) {
        const strip = workspaceTabs(state, action.payload.workspaceId);
        const { objectType, objectId, title } = action.payload;
        if (!addTab(strip, action.payload)) return;
        strip.active = { objectType, objectId };
        const tab = strip.tabs.find((candidate) => sameTab(candidate, { objectType, objectId }));
        // A known title refreshes a tab that was opened before the report list had arrived.
        if (tab && title && !tab.title) tab.title = title;
      },
      prepare: (payload: TabPayload & { title?: string }) => stamped(payload),
    },
    /** The Home tab got focus (clicked, the plus button, or the home route reached). */
    homeTabOpened(state, action: PayloadAction<InWorkspace>) {
      workspaceTabs(state, action.payload.workspaceId).active = null;
    },
    tabClosed(state, action: PayloadAction<TabPayload>) {
      closeTabs(workspaceTabs(state, action.payload.workspaceId), (tab) => sameTab(tab, action.payload));
    },
    /** Spec 2 §4 closeOthers: Home and the chosen tab remain, and the chosen tab gets focus. */
    otherTabsClosed(state, action: PayloadAction<TabPayload>) {
      const strip = workspaceTabs(state, action.payload.workspaceId);
      const { objectType, objectId } = action.payload;
      const chosen = strip.tabs.filter((tab) => sameTab(tab, { objectType, objectId }));
      strip.tabs = chosen;
      strip.active = chosen.length > 0 ? { objectType, objectId } : null;
    },
    /** Spec 2 §4 closeAll: back to Home alone. */
    allTabsClosed(state, action: PayloadAction<InWorkspace>) {
      state.byWorkspace[String(action.payload.workspaceId)] = { tabs: [], active: null };
    },
    /** Spec 2 §4 sync: a report's title changed (renamed here or elsewhere). */
    tabTitleSynced(state, action: PayloadAction<TabPayload & { title: string }>) {
      const tab = workspaceTabs(state, action.payload.workspaceId).tabs.find((candidate) =>
        sameTab(candidate, action.payload),
      );
      if (tab) tab.title = action.payload.title;
    },
    /**
     * A report list arrived (requested at `requestedAt`): tabs of reports no longer in it close (spec 2 §4),
     * and the others take their current titles. Tabs opened after the request are left alone.
     */
    reportsListed(
      state,
      action: PayloadAction<InWorkspace & { requestedAt: number; reports: (ReportTabRef & { title: string })[] }>,
    ) {
      const { workspaceId, requestedAt, reports } = action.payload;
      const strip = state.byWorkspace[String(workspaceId)];
      if (!strip) return;
      const titles = new Map(reports.map((report) => [`${report.objectType}/${report.objectId}`, report.title]));
      closeTabs(strip, (tab) => tab.openedAt <= requestedAt && !titles.has(`${tab.objectType}/${tab.objectId}`));
      for (const tab of strip.tabs) tab.title = titles.get(`${tab.objectType}/${tab.objectId}`) ?? tab.title;
    },
  },
  extraReducers: (builder) => {
    // What one person opened or chose never carries over to whoever signs in next on this browser.
    builder.addMatcher(isAnyOf(signedInUserChanged, signedOut), () => initialTabsState);
  },
  selectors: {
    selectWorkspaceTabs: (state, workspaceId: number): WorkspaceTabs => state.byWorkspace[String(workspaceId)] ?? EMPTY,
  },
});

export const {
  tabAdded,
  tabOpened,
  homeTabOpened,
  tabClosed,
  otherTabsClosed,
  allTabsClosed,
  tabTitleSynced,
  reportsListed,
} = tabsSlice.actions;
export const { selectWorkspaceTabs } = tabsSlice.selectors;
export const tabsReducer = tabsSlice.reducer;
export { tabsSlice };
