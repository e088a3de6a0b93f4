import { engagementCsv } from '../../engine/csv';
import { CSV_CHUNK_ROWS, type ContactRow, engagementCsvBlob } from './downloadCsv';
import { PAGE_BACKGROUNDS, SEGMENT_COLOURS, contrastRatio } from './segmentColours';

const names: Record<string, string> = { engaged: 'Engaged', at_risk: 'At risk' };
const contacts = (n: number): ContactRow[] =>
  Array.from({ length: n }, (_, i) => ({
    contact_id: i === 3 ? '=cmd()' : `contact-${i}`,
    segment: i % 3 ? 'engaged' : 'at_risk',
  }));

/** jsdom's Blob has no text(); its FileReader reads it as a browser would. */
const textOf = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

describe('the CSV download in chunks', () => {
  it.each([0, 5, CSV_CHUNK_ROWS, 2 * CSV_CHUNK_ROWS + 7])('of %i contacts is the one-piece CSV', async (n) => {
    const rows = contacts(n);
    const asked: number[] = [];
    const blob = await engagementCsvBlob(
      async (offset, limit) => {
        asked.push(offset);
        return rows.slice(offset, offset + limit);
      },
      (id) => names[id],
    );
    expect(await textOf(blob)).toBe(engagementCsv(rows, (id) => names[id]));
    // One query per chunk, plus an empty one when the last chunk was full.
    expect(asked).toEqual(Array.from({ length: Math.floor(n / CSV_CHUNK_ROWS) + 1 }, (_, i) => i * CSV_CHUNK_ROWS));
  });
});

describe('segment colours', () => {
  it.each(Object.entries(PAGE_BACKGROUNDS))('keep 3:1 against the %s background and differ', (_mode, background) => {
    for (const colour of Object.values(SEGMENT_COLOURS)) {
      expect([colour, contrastRatio(colour, background) >= 3]).toEqual([colour, true]);
    }
    expect(new Set(Object.values(SEGMENT_COLOURS)).size).toBe(5);
  });
});
