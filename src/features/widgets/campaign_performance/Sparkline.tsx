import { type ChangeTone } from '../../../engine/format';

interface SparklineProps {
  values: (number | null)[];
  /** The comparison period's values, drawn dashed behind. */
  compare?: (number | null)[];
  tone: ChangeTone;
  /** @default 40 */
  height?: number;
  label: string;
}

function path(values: (number | null)[], min: number, max: number, width: number, height: number): string {
  const span = max - min || 1;
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  let d = '';
  let pen = false;
  values.forEach((value, index) => {
    if (value === null) {
      pen = false;
      return;
    }
    const x = index * step;
    const y = height - ((value - min) / span) * height;
    d += `${pen ? 'L' : 'M'}${x.toFixed(2)},${y.toFixed(2)} `;
    pen = true;
  });
  return d.trim();
}

/** A small line of a metric over the period, coloured by whether its change is good news. */
export function Sparkline({ values, compare = [], tone, height = 40, label }: SparklineProps) {
  const numbers = [...values, ...compare].filter((value): value is number => value !== null);
  if (!numbers.length) return null;
  const min = Math.min(...numbers);
  const max = Math.max(...numbers);
  const width = 100;
  return (
    <svg
      className={`or-sparkline or-change-${tone}`}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      height={height}
      role="img"
      aria-label={label}
    >
      {compare.length > 0 && (
        <path className="or-sparkline-compare" d={path(compare, min, max, width, height)} fill="none" />
      )}
      <path className="or-sparkline-main" d={path(values, min, max, width, height)} fill="none" />
    </svg>
  );
}
