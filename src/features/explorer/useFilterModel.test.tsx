import { act, fireEvent, screen } from '@testing-library/react';
import { useCallback, useState } from 'react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { START_TIMEOUT_MS } from '../../../test/timeouts';
import { type ExplorerConfig } from '../../contracts/reports';
import {
  MAIN,
  WORKSPACE_ID,
  type WidgetEngine,
  startWidgetEngine,
  storeWithDataset,
  widgetSchema,
} from '../widgets/testing/widgetEngine';
import { TEXT_FILTER_DEBOUNCE_MS } from './ColumnMenu';
import { ExplorerView } from './ExplorerView';
import { FILTER_MODEL_DEBOUNCE_MS } from './useFilterModel';

jest.setTimeout(60_000);

let engine: WidgetEngine | undefined;
beforeAll(async () => {
  engine = await startWidgetEngine();
}, START_TIMEOUT_MS);
afterEach(() => jest.useRealTimers());

const byCountry: ExplorerConfig = {
  dataset: widgetSchema.id,
  dateRanges: { main: { ...MAIN, preset: 'custom' } },
  columns: [{ colId: 'country', rowGroup: true }],
  valueColumns: ['sent'],
};
type Edit = (config: ExplorerConfig) => ExplorerConfig;

/** The report page's part: every edit applies to the config the view shows. */
function EditableView({ onEdit }: { onEdit(edit: Edit): void }) {
  const [config, setConfig] = useState(byCountry);
  const edit = useCallback(
    (change: Edit) => {
      onEdit(change);
      setConfig(change);
    },
    [onEdit],
  );
  return <ExplorerView config={config} scope={{ workspaceId: WORKSPACE_ID }} canEdit onEdit={edit} />;
}

test('a burst of typing in a text filter makes one engine request and, 400 ms later, one report edit', async () => {
  const store = storeWithDataset();
  // The text filters of the count queries the grid asked the engine for (an unused entry stays for a minute).
  const counted = () =>
    Object.values(store.getState().engineApi.queries).flatMap((entry) => {
      const args = entry?.originalArgs as unknown as {
        query: { kind: string; filterModel?: { country?: { filter?: string } } };
      };
      const text = args.query.filterModel?.country?.filter;
      return args.query.kind === 'explorerCount' && text ? [text] : [];
    });
  const onEdit = jest.fn();
  renderWithProviders(<EditableView onEdit={onEdit} />, { store });
  await screen.findByText(/Rows: \d/);
  const country = String(engine!.sql(`SELECT DISTINCT country FROM campaigns_fixture ORDER BY 1`)[0].country);
  const typed = country.slice(0, 3);

  jest.useFakeTimers();
  fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
  const input = screen.getByLabelText('Filter country');
  for (let length = 1; length <= typed.length; length++) {
    fireEvent.change(input, { target: { value: typed.slice(0, length) } });
    act(() => jest.advanceTimersByTime(TEXT_FILTER_DEBOUNCE_MS - 20));
  }
  expect(counted()).toEqual([]);
  act(() => jest.advanceTimersByTime(20));
  // The last text only: the pauses between keys were shorter than the text filters' debounce.
  expect(counted()).toEqual([typed]);
  expect(onEdit).not.toHaveBeenCalled();

  act(() => jest.advanceTimersByTime(FILTER_MODEL_DEBOUNCE_MS - 1));
  expect(onEdit).not.toHaveBeenCalled();
  act(() => jest.advanceTimersByTime(1));
  expect(onEdit).toHaveBeenCalledTimes(1);
  expect((onEdit.mock.calls[0][0] as Edit)(byCountry).filterModel).toEqual({
    country: { filterType: 'text', type: 'contains', filter: typed },
  });
  expect(counted()).toEqual([typed]);
  jest.useRealTimers();

  const [{ n }] = engine!.sql(
    `SELECT COUNT(DISTINCT country) AS n FROM campaigns_fixture WHERE send_date BETWEEN DATE '${MAIN.start}' ` +
      `AND DATE '${MAIN.end}' AND contains(CAST(country AS VARCHAR), '${typed}')`,
  );
  expect(await screen.findByText(`Rows: ${String(n)}`)).toBeTruthy();
});
