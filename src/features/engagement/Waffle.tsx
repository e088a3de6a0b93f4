import { engagementSegments } from '../../contracts/catalogue';
import { type Locale } from '../../contracts/common';
import { formatValue } from '../../engine/format';
import { WAFFLE_COLUMNS, WAFFLE_ROWS, waffleCellCounts, waffleCells } from './engagementModel';
import { SEGMENT_COLOURS } from './segmentColours';

/** The month's segment sizes as 20 × 60 cells in the five segment colours, with a legend of the shares. */
export function Waffle({ sizes, locale }: { sizes: number[]; locale: Locale }) {
  const counts = waffleCellCounts(sizes);
  const cells = waffleCells(counts);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const legend = engagementSegments.map((segment, index) => ({
    segment,
    share: formatValue(total ? sizes[index] / total : null, 'percent', locale),
  }));
  return (
    <figure className="or-engagement-waffle">
      <svg
        viewBox={`0 0 ${WAFFLE_COLUMNS} ${WAFFLE_ROWS}`}
        role="img"
        aria-label={`Segment sizes: ${legend.map(({ segment, share }) => `${segment.name} ${share}`).join(', ')}`}
      >
        {cells.map((segmentIndex, cell) => (
          <rect
            key={cell}
            x={(cell % WAFFLE_COLUMNS) + 0.08}
            y={Math.floor(cell / WAFFLE_COLUMNS) + 0.08}
            width={0.84}
            height={0.84}
            fill={SEGMENT_COLOURS[engagementSegments[segmentIndex].id]}
            data-segment={engagementSegments[segmentIndex].id}
          />
        ))}
      </svg>
      <figcaption className="or-engagement-legend">
        {legend.map(({ segment, share }) => (
          <span key={segment.id}>
            <span className="or-engagement-swatch" style={{ background: SEGMENT_COLOURS[segment.id] }} />
            {segment.name} {share}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
