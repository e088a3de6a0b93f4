import { screen } from '@testing-library/react';
import { useEffect } from 'react';
import type { PlotParams } from 'react-plotly.js';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { GraphChart } from './GraphChart';
import { type GraphModel } from './graphModel';
import { campaignField } from './testing/resultColumns';

/** The layout of every chart the widget asked plotly to draw, in order. */
const drawn: { width?: number }[] = [];

/** The error plotly's drawing fails with, as react-plotly.js reports it; null: every chart is drawn. */
let mockDrawError: Error | null = null;

jest.mock('../charts/Plot', () => ({
  Plot: (props: PlotParams) => {
    drawn.push(props.layout as { width?: number });
    useEffect(() => {
      if (mockDrawError) props.onError?.(mockDrawError);
    }, [props]);
    return null;
  },
}));

const sent = campaignField('sent');
const model: GraphModel = {
  axis: ['2024-01-01', '2024-01-02'],
  granularity: 'day',
  series: [
    {
      id: 'sent',
      name: 'Sent',
      metric: sent,
      period: 'main',
      values: [5, 7],
      buckets: ['2024-01-01', '2024-01-02'],
      color: '#2d72d2',
      group: 'sent',
    },
  ],
  settings: {
    chartType: 'line',
    groupMode: 'grouped',
    granularity: 'day',
    autoPercentAxis: false,
    autoScaleYAxis: true,
  },
  percentAxis: false,
  missing: [],
};

afterEach(() => {
  drawn.length = 0;
  mockDrawError = null;
  jest.restoreAllMocks();
});

test("a chart is drawn once, at its frame's width, never first at plotly's own size", () => {
  jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(612);
  renderWithProviders(<GraphChart model={model} locale="en_US" title="Sends" />);
  expect(screen.getByRole('figure', { name: 'Sends' })).toBeTruthy();
  expect(drawn.map((layout) => layout.width)).toEqual([612]);
});

test('a hidden frame (no width) still gets its chart, sized by plotly', () => {
  jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(0);
  renderWithProviders(<GraphChart model={model} locale="en_US" title="Sends" />);
  expect(drawn).toHaveLength(1);
  expect(drawn[0].width).toBeUndefined();
});

test('a chart plotly fails to draw shows the chart error, and new numbers are drawn again', () => {
  jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(612);
  mockDrawError = new Error("Cannot read properties of undefined (reading 'orientation')");
  const { rerender } = renderWithProviders(<GraphChart model={model} locale="en_US" title="Sends" />);
  expect(screen.getByRole('alert').textContent).toContain(
    'Oops! We encountered an error while rendering this widget. Please try adjusting its settings, or refresh the page.',
  );

  mockDrawError = null;
  const next = { ...model, series: [{ ...model.series[0], values: [6, 8] }] };
  rerender(<GraphChart model={next} locale="en_US" title="Sends" />);
  expect(screen.queryByRole('alert')).toBeNull();
  expect(drawn).toHaveLength(2);
});
