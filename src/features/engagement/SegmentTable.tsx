import { Button, HTMLTable } from '@blueprintjs/core';
import { type KeyboardEvent } from 'react';
import { engagementSegments, type EngagementSegmentId } from '../../contracts/catalogue';
import { type Locale } from '../../contracts/common';
import { formatValue } from '../../engine/format';
import { type SegmentTableRow } from './engagementModel';
import { SEGMENT_COLOURS } from './segmentColours';

interface SegmentTableProps {
  rows: SegmentTableRow[];
  locale: Locale;
  selected: EngagementSegmentId;
  onSelect: (segmentId: EngagementSegmentId) => void;
  /** Downloads one segment's contacts, or every segment's without an id. */
  onDownload: (segmentId?: EngagementSegmentId) => void;
  downloading: boolean;
}

const selectKeys = new Set(['Enter', ' ']);

/**
 * Spec 3 §2 segment table with a Total row. A segment row is selected by click, or by Enter or Space once
 * focused (rows are in the tab order), and then drives the flow diagram.
 */
export function SegmentTable({ rows, locale, selected, onSelect, onDownload, downloading }: SegmentTableProps) {
  const number = (value: unknown) => formatValue(value, 'number', locale);
  const percent = (value: unknown) => formatValue(value, 'percent', locale);
  const onKey = (segmentId: EngagementSegmentId) => (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget || !selectKeys.has(event.key)) return;
    event.preventDefault();
    onSelect(segmentId);
  };
  return (
    <HTMLTable className="or-engagement-table" compact striped aria-label="Segments">
      <thead>
        <tr>
          <th>Name</th>
          <th>Size</th>
          <th>% of total</th>
          <th>Days since last click</th>
          <th>Click frequency</th>
          <th>Click rate</th>
          <th>Download</th>
          {engagementSegments.map((segment) => (
            <th key={segment.id}>From {segment.name}</th>
          ))}
          <th>New</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const segmentId = row.segment_id;
          const isSelected = segmentId === selected;
          return (
            <tr
              key={segmentId ?? 'total'}
              className={isSelected ? 'or-engagement-selected' : undefined}
              tabIndex={segmentId ? 0 : undefined}
              aria-selected={segmentId ? isSelected : undefined}
              onClick={segmentId ? () => onSelect(segmentId) : undefined}
              onKeyDown={segmentId ? onKey(segmentId) : undefined}
            >
              <th scope="row">
                {segmentId && (
                  <span className="or-engagement-swatch" style={{ background: SEGMENT_COLOURS[segmentId] }} />
                )}
                {row.segment_name}
              </th>
              <td>{number(row.size)}</td>
              <td>{percent(row.share)}</td>
              <td>{number(row.days_since_last_click)}</td>
              <td>{number(row.click_frequency)}</td>
              <td>{percent(row.click_rate)}</td>
              <td>
                <Button
                  size="small"
                  variant="minimal"
                  icon="download"
                  disabled={downloading || !row.size}
                  aria-label={segmentId ? `Download ${row.segment_name}` : 'Download all segments'}
                  onClick={(event) => {
                    event.stopPropagation();
                    onDownload(segmentId ?? undefined);
                  }}
                />
              </td>
              {engagementSegments.map((segment) => (
                <td key={segment.id}>{number(row[`inflow_from_${segment.id}`])}</td>
              ))}
              <td>{number(row.inflow_new)}</td>
            </tr>
          );
        })}
      </tbody>
    </HTMLTable>
  );
}
