import { type TargetVisualization } from '../../../contracts/targets';
import { type ProgressPoint } from './targetProgress';

/** The card's graph area (spec 2 §9): 80 px high. */
export const TARGET_GRAPH_HEIGHT = 80;
const WIDTH = 100;

interface TargetChartProps {
  points: readonly ProgressPoint[];
  /** The last day with an actual value to draw (today, or the end day once the period is over). */
  lastDay: string | null;
  visualization: TargetVisualization;
  label: string;
}

const y = (value: number, max: number) => TARGET_GRAPH_HEIGHT - (value / max) * TARGET_GRAPH_HEIGHT;

/** Cumulative actual against the expected value, day by day over the period, as a line or bars. */
export function TargetChart({ points, lastDay, visualization, label }: TargetChartProps) {
  const actual = points.map((point) => (lastDay !== null && point.day <= lastDay ? (point.cumulative ?? 0) : null));
  const expected = points.map((point) => point.expected ?? 0);
  const max = Math.max(1e-9, ...expected, ...actual.map((value) => value ?? 0));
  const step = points.length > 1 ? WIDTH / (points.length - 1) : 0;
  const line = (values: (number | null)[]) =>
    values
      .flatMap((value, index) =>
        value === null ? [] : [`${index === 0 ? 'M' : 'L'}${(index * step).toFixed(2)},${y(value, max).toFixed(2)}`],
      )
      .join(' ')
      .replace(/^L/, 'M');
  const barWidth = WIDTH / Math.max(1, points.length);
  return (
    <svg
      className="or-target-chart"
      viewBox={`0 0 ${WIDTH} ${TARGET_GRAPH_HEIGHT}`}
      preserveAspectRatio="none"
      height={TARGET_GRAPH_HEIGHT}
      role="img"
      aria-label={label}
      data-visualization={visualization}
    >
      {visualization === 'bar' ? (
        actual.map((value, index) =>
          value === null ? null : (
            <rect
              key={points[index].day}
              className="or-target-chart-actual"
              x={index * barWidth + barWidth * 0.1}
              width={barWidth * 0.8}
              y={y(value, max)}
              height={TARGET_GRAPH_HEIGHT - y(value, max)}
            />
          ),
        )
      ) : (
        <path className="or-target-chart-actual" d={line(actual)} fill="none" />
      )}
      <path className="or-target-chart-expected" d={line(expected)} fill="none" />
    </svg>
  );
}
