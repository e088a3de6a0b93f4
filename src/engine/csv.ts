/** Engagement CSV download (spec 3 §2): contact id and segment, generated in the browser. */

/** A CSV cell: quoted when needed; a leading formula character is defused so spreadsheets show text. */
function cell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return csvLines([header, ...rows]);
}

/** CSV lines, each ending in CRLF (a file written block by block joins them). */
export function csvLines(rows: unknown[][]): string {
  return rows.map((row) => row.map(cell).join(',') + '\r\n').join('');
}

/** The engagement CSV of query rows {contact_id, segment}, with the segment's display name. */
export function engagementCsv(
  rows: { contact_id: string; segment: string }[],
  segmentName: (segmentId: string) => string,
): string {
  return ENGAGEMENT_CSV_HEADER + engagementCsvLines(rows, segmentName);
}

export const ENGAGEMENT_CSV_HEADER = 'contact_id,segment\r\n';

/** The lines of a chunk of the download, without the header (a large segment is written chunk by chunk). */
export function engagementCsvLines(
  rows: { contact_id: string; segment: string }[],
  segmentName: (segmentId: string) => string,
): string {
  return rows.map((row) => `${cell(row.contact_id)},${cell(segmentName(row.segment))}\r\n`).join('');
}

/** The download's file name: the month and the segment name (or all segments). */
export function engagementCsvFileName(month: string, segmentName?: string): string {
  const slug = (segmentName ?? 'all segments')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `engagement_${month}_${slug}.csv`;
}
