import { ENGAGEMENT_CSV_HEADER, engagementCsvLines } from '../../engine/csv';

/** Rows per query of the download: a segment of 10^5 contacts is read in a few chunks, the tab stays responsive. */
export const CSV_CHUNK_ROWS = 20_000;

export type ContactRow = { contact_id: string; segment: string };

/**
 * The engagement CSV as a Blob built chunk by chunk: each chunk is one engine query (run in the worker) turned
 * into text, so no single step holds the main thread for the whole segment.
 */
export async function engagementCsvBlob(
  fetchChunk: (offset: number, limit: number) => Promise<ContactRow[]>,
  segmentName: (segmentId: string) => string,
): Promise<Blob> {
  const parts: string[] = [ENGAGEMENT_CSV_HEADER];
  for (let offset = 0; ; offset += CSV_CHUNK_ROWS) {
    const rows = await fetchChunk(offset, CSV_CHUNK_ROWS);
    parts.push(engagementCsvLines(rows, segmentName));
    if (rows.length < CSV_CHUNK_ROWS) break;
  }
  return new Blob(parts, { type: 'text/csv;charset=utf-8' });
}

/** Hands a Blob to the browser as a file download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click starts the download synchronously; the URL can go once the event loop moves on.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
