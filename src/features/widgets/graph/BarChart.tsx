import { useMemo, useRef } from 'react';
import { type Locale } from '../../../contracts/common';
import { formatField } from '../../../engine/format';
import { useAppSelector } from '../../../store/hooks';
import { selectIsDarkTheme } from '../../prefs/prefsSlice';
import { FramePlot, useWidth } from '../GraphChart';
import { type BarModel, barFigure } from './barModel';

interface BarChartProps {
  model: BarModel;
  locale: Locale;
  /** Accessible name of the chart. */
  title: string;
}

/**
 * Bars by dimension value drawn by plotly, with the same values as a table for screen readers (a chart's
 * bars cannot be read out).
 */
export function BarChart({ model, locale, title }: BarChartProps) {
  const dark = useAppSelector(selectIsDarkTheme);
  const frame = useRef<HTMLDivElement>(null);
  const { measured, width } = useWidth(frame);
  const figure = useMemo(() => barFigure(model, { locale, dark, width }), [model, locale, dark, width]);
  return (
    <div className="or-graph-chart" ref={frame} role="figure" aria-label={title}>
      {measured && <FramePlot figure={figure} />}
      <table className="or-visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col" />
            {model.series.map((series) => (
              <th key={series.metric.id} scope="col">
                {series.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {model.categories.map((category, index) => (
            <tr key={`${index}:${category}`}>
              <th scope="row">{category}</th>
              {model.series.map((series) => (
                <td key={series.metric.id}>{formatField(series.values[index], series.metric, locale)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
