import { engagementSegments } from '../../contracts/catalogue';
import { type Locale } from '../../contracts/common';
import { formatValue } from '../../engine/format';
import { type FlowModel } from './engagementModel';
import { SEGMENT_COLOURS } from './segmentColours';

const NEUTRAL = '#738091';
/** A flow end's label: a segment's name, or where contacts came from or went outside the segments. */
const OUTSIDE: Record<string, string> = { joined: 'Joined', gone: 'Left' };
const labelOf = (id: string) => OUTSIDE[id] ?? engagementSegments.find((segment) => segment.id === id)?.name ?? id;
const colourOf = (id: string) => SEGMENT_COLOURS[id as keyof typeof SEGMENT_COLOURS] ?? NEUTRAL;

function FlowColumn({
  title,
  flows,
  locale,
}: {
  title: string;
  flows: { id: string; size: number }[];
  locale: Locale;
}) {
  const largest = Math.max(1, ...flows.map((flow) => flow.size));
  return (
    <div className="or-engagement-flow-column">
      <h4>{title}</h4>
      <ul>
        {flows.map((flow) => (
          <li key={flow.id} data-flow={flow.id}>
            <span className="or-engagement-flow-label">{labelOf(flow.id)}</span>
            <svg className="or-engagement-flow-bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden>
              <rect width={(flow.size / largest) * 100} height={10} fill={colourOf(flow.id)} />
            </svg>
            <span className="or-engagement-flow-size">{formatValue(flow.size, 'number', locale)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The selected segment's flows: where this month's members came from and where last month's members went,
 * as bars in the segment colours; 'No comparison available.' without flows (spec 3 §2).
 */
export function FlowDiagram({
  flow,
  segmentName,
  locale,
}: {
  flow: FlowModel | null;
  segmentName: string;
  locale: Locale;
}) {
  return (
    <section className="or-engagement-flow" aria-label={`Flow of ${segmentName}`}>
      <h3>{segmentName}</h3>
      {flow ? (
        <div className="or-engagement-flow-columns">
          <FlowColumn
            title="Came from"
            locale={locale}
            flows={flow.inflow.map(({ from, size }) => ({ id: from, size }))}
          />
          <FlowColumn title="Went to" locale={locale} flows={flow.outflow.map(({ to, size }) => ({ id: to, size }))} />
        </div>
      ) : (
        <p>No comparison available.</p>
      )}
    </section>
  );
}
