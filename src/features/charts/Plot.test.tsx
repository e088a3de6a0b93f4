import { render, screen } from '@testing-library/react';
import type { PlotParams } from 'react-plotly.js';
import { Plot } from './Plot';

jest.mock('./plotly', () => ({ Plotly: {} }));
jest.mock('react-plotly.js/factory', () => ({
  __esModule: true,
  default: () =>
    function FakePlot({ layout }: PlotParams) {
      return <div role="img" aria-label={String((layout as { title?: string }).title)} />;
    },
}));

const chart = (title: string) => ({ data: [], layout: { title, height: 240 } });

test("charts are drawn once their turn comes; until then each keeps its chart's height", async () => {
  const first = chart('Opens');
  const second = chart('Clicks');
  const { container } = render(
    <>
      <Plot {...first} />
      <Plot {...second} />
    </>,
  );
  const waiting = [...container.querySelectorAll<HTMLElement>('.or-plot-pending')];
  expect(waiting.map((element) => element.style.height)).toEqual(['240px', '240px']);
  expect(await screen.findByRole('img', { name: 'Opens' })).toBeTruthy();
  expect(await screen.findByRole('img', { name: 'Clicks' })).toBeTruthy();
  expect(container.querySelector('.or-plot-pending')).toBeNull();
});

test('a new figure replaces the drawn one', async () => {
  const { rerender } = render(<Plot {...chart('Opens')} />);
  await screen.findByRole('img', { name: 'Opens' });
  rerender(<Plot {...chart('Clicks')} />);
  expect(await screen.findByRole('img', { name: 'Clicks' })).toBeTruthy();
  expect(screen.queryByRole('img', { name: 'Opens' })).toBeNull();
});
