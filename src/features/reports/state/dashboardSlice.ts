import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** One report's canvas state: whether it is being edited and which widget is selected (spec 2 §4). */
export interface DashboardEditState {
  editMode: boolean;
  selectedWidgetId: string | null;
}

export interface DashboardState {
  /** Keyed by the report key, so every open dashboard tab keeps its own edit mode and selection. */
  byKey: Record<string, DashboardEditState>;
}

export const initialDashboardState: DashboardState = { byKey: {} };

const idle: DashboardEditState = { editMode: false, selectedWidgetId: null };

function entry(state: DashboardState, key: string): DashboardEditState {
  state.byKey[key] ??= { ...idle };
  return state.byKey[key];
}

const dashboardSlice = createSlice({
  name: 'dashboard',
  initialState: initialDashboardState,
  reducers: {
    editModeToggled(state, action: PayloadAction<{ key: string }>) {
      const current = entry(state, action.payload.key);
      current.editMode = !current.editMode;
      // Leaving edit mode ends the selection.
      if (!current.editMode) current.selectedWidgetId = null;
    },
    editModeSet(state, action: PayloadAction<{ key: string; editMode: boolean }>) {
      const current = entry(state, action.payload.key);
      current.editMode = action.payload.editMode;
      if (!current.editMode) current.selectedWidgetId = null;
    },
    /** Only a widget of a dashboard in edit mode can be selected. */
    widgetSelected(state, action: PayloadAction<{ key: string; widgetId: string }>) {
      const current = entry(state, action.payload.key);
      if (current.editMode) current.selectedWidgetId = action.payload.widgetId;
    },
    selectionCleared(state, action: PayloadAction<{ key: string }>) {
      const current = state.byKey[action.payload.key];
      if (current) current.selectedWidgetId = null;
    },
    /** The dashboard's widgets changed: a selected widget that no longer exists is unselected. */
    widgetsChanged(state, action: PayloadAction<{ key: string; widgetIds: string[] }>) {
      const current = state.byKey[action.payload.key];
      if (current?.selectedWidgetId != null && !action.payload.widgetIds.includes(current.selectedWidgetId)) {
        current.selectedWidgetId = null;
      }
    },
  },
  selectors: {
    selectEditMode: (state, key: string): boolean => state.byKey[key]?.editMode ?? false,
    selectSelectedWidget: (state, key: string): string | null => state.byKey[key]?.selectedWidgetId ?? null,
  },
});

export const { editModeToggled, editModeSet, widgetSelected, selectionCleared, widgetsChanged } =
  dashboardSlice.actions;
export const { selectEditMode, selectSelectedWidget } = dashboardSlice.selectors;
export const dashboardReducer = dashboardSlice.reducer;
export { dashboardSlice };
