import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { z } from 'zod';
import { reportTypeSchema } from '../../../contracts/reports';
import { signedInUserChanged, signedOut } from '../../session/sessionActions';

/** Spec 2 §2 Reports home: the three orderings, lastOpenedAt first (the default). */
export const reportOrders = ['lastOpenedAt', 'modifiedAt', 'title'] as const;
export type ReportOrder = (typeof reportOrders)[number];

export const ownershipFilters = ['anyone', 'me', 'notMe'] as const;
export type OwnershipFilter = (typeof ownershipFilters)[number];

export const listViewSchema = z.object({
  order: z.enum(reportOrders).catch('lastOpenedAt'),
  ownership: z.enum(ownershipFilters).catch('anyone'),
  type: z.union([reportTypeSchema, z.literal('all')]).catch('all'),
});

/** How one workspace's report list is ordered and filtered; kept per workspace (spec 2 §2). */
export type ReportListView = z.infer<typeof listViewSchema>;

export const DEFAULT_LIST_VIEW: ReportListView = { order: 'lastOpenedAt', ownership: 'anyone', type: 'all' };

export interface ReportsListState {
  /** Keyed by workspace id; a workspace without an entry uses the default view. */
  byWorkspace: Record<string, ReportListView>;
}

export const initialReportsListState: ReportsListState = { byWorkspace: {} };

const reportsListSlice = createSlice({
  name: 'reportsList',
  initialState: initialReportsListState,
  reducers: {
    reportListViewChanged(state, action: PayloadAction<{ workspaceId: number; view: Partial<ReportListView> }>) {
      const key = String(action.payload.workspaceId);
      state.byWorkspace[key] = { ...(state.byWorkspace[key] ?? DEFAULT_LIST_VIEW), ...action.payload.view };
    },
  },
  extraReducers: (builder) => {
    // What one person opened or chose never carries over to whoever signs in next on this browser.
    builder.addMatcher(isAnyOf(signedInUserChanged, signedOut), () => initialReportsListState);
  },
  selectors: {
    selectReportListView: (state, workspaceId: number): ReportListView =>
      state.byWorkspace[String(workspaceId)] ?? DEFAULT_LIST_VIEW,
  },
});

export const { reportListViewChanged } = reportsListSlice.actions;
export const { selectReportListView } = reportsListSlice.selectors;
export const reportsListReducer = reportsListSlice.reducer;
export { reportsListSlice };
