import {
  dashboardReducer,
  editModeSet,
  editModeToggled,
  initialDashboardState,
  type DashboardState,
  selectionCleared,
  widgetSelected,
  widgetsChanged,
} from './dashboardSlice';

const key = 'dashboard/7';
const editing = (selectedWidgetId: string | null = null): DashboardState => ({
  byKey: { [key]: { editMode: true, selectedWidgetId } },
});

describe('dashboard edit mode and selection (spec 2 §4)', () => {
  it('toggles edit mode per report', () => {
    const state = dashboardReducer(initialDashboardState, editModeToggled({ key }));
    expect(state.byKey[key].editMode).toBe(true);
    expect(state.byKey['dashboard/8']).toBeUndefined();
    expect(dashboardReducer(state, editModeToggled({ key })).byKey[key].editMode).toBe(false);
  });

  it('selects a widget only in edit mode', () => {
    expect(dashboardReducer(initialDashboardState, widgetSelected({ key, widgetId: 'a' })).byKey[key]).toEqual({
      editMode: false,
      selectedWidgetId: null,
    });
    expect(dashboardReducer(editing(), widgetSelected({ key, widgetId: 'a' })).byKey[key].selectedWidgetId).toBe('a');
  });

  it('clears the selection when edit mode ends', () => {
    expect(dashboardReducer(editing('a'), editModeToggled({ key })).byKey[key]).toEqual({
      editMode: false,
      selectedWidgetId: null,
    });
    expect(dashboardReducer(editing('a'), editModeSet({ key, editMode: false })).byKey[key].selectedWidgetId).toBe(
      null,
    );
  });

  it('clears the selection when the selected widget disappears, and keeps it otherwise', () => {
    expect(dashboardReducer(editing('a'), widgetsChanged({ key, widgetIds: ['b'] })).byKey[key].selectedWidgetId).toBe(
      null,
    );
    expect(
      dashboardReducer(editing('a'), widgetsChanged({ key, widgetIds: ['b', 'a'] })).byKey[key].selectedWidgetId,
    ).toBe('a');
  });

  it('clears the selection on a click outside, keeping edit mode', () => {
    expect(dashboardReducer(editing('a'), selectionCleared({ key })).byKey[key]).toEqual({
      editMode: true,
      selectedWidgetId: null,
    });
  });
});
