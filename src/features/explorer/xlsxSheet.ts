import { AsyncDeflate, Zip, ZipDeflate, type ZipInputFile, strFromU8, unzipSync } from 'fflate';
import { type Cell } from '../../engine/cells';
import { crc32, crc32Combine } from './crc32';

/**
 * The export's worksheet, written without exceljs's cell model: exceljs writes a small scaffold workbook (header
 * rows, merges, frozen pane, widths, styles and one template row holding each column's style); this module keeps
 * every part of it as is except the sheet's rows, which it writes as XML bytes straight from the columns, and zips
 * the whole with fflate. A Cell object per value and the sheet as one giant string were most of the export's time.
 */

const SHEET_PART = 'xl/worksheets/sheet1.xml';
/**
 * Deflate level of the zip: on 10^5 × 30 cells of sheet XML, level 1 took 5.0 s (31 MiB) in Node at load average 8,
 * level 2 5.7 s (30 MiB), level 0 (stored) 0.8 s but a file 4.5 times larger (139 MiB).
 */
const DEFLATE_LEVEL = 1;

/** One column of the sheet: its cell style (an index into styles.xml) and whether only numbers show in it. */
export interface SheetColumn {
  style: number;
  numeric: boolean;
}

/** The scaffold's worksheet XML cut around its template row. */
export interface SheetTemplate {
  /** Up to the template row, `dimension` included (rewritten at the end with the real row count). */
  prefix: string;
  /** From `</sheetData>`: merges, page setup (exceljs writes views and widths before sheetData, in the prefix). */
  suffix: string;
  /** Each column's style index in the template row, in column order (0 where the row's cell has none). */
  styles: number[];
}

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Cuts the scaffold's sheet XML at its template row (row number `row`) and reads the row's styles. */
export function sheetTemplate(xml: string, row: number, columnCount: number): SheetTemplate {
  const start = xml.indexOf(`<row r="${row}"`);
  const dataEnd = xml.indexOf('</sheetData>');
  const end = xml.indexOf('</row>', start);
  if (start < 0 || dataEnd < 0 || end < 0) throw new Error('The export scaffold has no template row');
  const styles = Array<number>(columnCount).fill(0);
  const letters = new Map(styles.map((_, c) => [columnLetters(c), c]));
  for (const cell of xml.slice(start, end).matchAll(/<c r="([A-Z]+)\d+"(?: s="(\d+)")?/g)) {
    const column = letters.get(cell[1]);
    if (column !== undefined) styles[column] = Number(cell[2] ?? 0);
  }
  return { prefix: xml.slice(0, start), suffix: xml.slice(dataEnd), styles };
}

/** Characters XML 1.0 does not allow (controls, U+FFFE/F, lone surrogates): dropped from exported text. */
const ILLEGAL =
  // eslint-disable-next-line no-control-regex -- the control characters are what these find
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex -- as above
const SPECIAL = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

/** Text as XML character data: specials escaped (a carriage return as a reference, so it survives parsing). */
export function xmlText(text: string): string {
  if (!SPECIAL.test(text)) return text;
  return text.replace(ILLEGAL, '').replace(/[&<>\r]/g, (ch) => ESCAPES[ch]);
}

/** Bytes of a number's digits at most (JavaScript's shortest form: 17 digits, sign, point, exponent). */
const NUMBER_BYTES = 25;

/** A growable byte buffer the rows' XML is written into, reused from block to block. */
class Bytes {
  buffer: Uint8Array;
  length = 0;

  constructor(size: number) {
    this.buffer = new Uint8Array(size);
  }

  /** Room for `count` more bytes; the buffer may be replaced, so callers read `buffer` after it. */
  reserve(count: number) {
    if (this.length + count <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + count));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }

  /** The bytes written since the last take, as a buffer of their own. */
  take(): Uint8Array {
    const out = this.buffer.slice(0, this.length);
    this.length = 0;
    return out;
  }
}

/** Copies short constant bytes into `buffer` at `at` (a loop beats `set` at these sizes); returns the new end. */
function put(buffer: Uint8Array, at: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) buffer[at++] = bytes[i];
  return at;
}

/**
 * Writes a number's digits (ASCII, as JavaScript prints it: full precision, exponent when large) into `buffer` at
 * `at`, which has room for NUMBER_BYTES; returns the new end.
 */
function putNumber(buffer: Uint8Array, at: number, value: number): number {
  // Small integers (counts, the row numbers) by hand, in 32-bit arithmetic: several times quicker than String.
  if ((value | 0) === value && !Object.is(value, -0) && value !== -2147483648) {
    let n = value;
    if (n < 0) {
      buffer[at++] = 45;
      n = -n;
    }
    const digits = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 1e4 ? 4 : n < 1e5 ? 5 : Math.floor(Math.log10(n)) + 1;
    const end = at + digits;
    at = end;
    do {
      const next = (n / 10) | 0;
      buffer[--at] = 48 + n - next * 10;
      n = next;
    } while (n > 0);
    return end;
  }
  const text = String(value);
  for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i);
  return at;
}

/**
 * The constant pieces of one column's cells, as bytes. A cell's reference (`r="C12"`) is optional in the sheet's XML:
 * a cell without one is the column after the previous cell's. So only a row's first written cell, and a cell after
 * one left out, carry theirs (`at`: the opening up to the row number); the others open with `open`, which saves a
 * fifth of the sheet's bytes.
 */
function cellPieces(letters: string, style: number) {
  const s = style ? ` s="${style}"` : '';
  return {
    at: bytesOf(`<c r="${letters}`),
    open: bytesOf(`<c${s}`),
    referenced: bytesOf(`"${s}`),
    number: bytesOf('><v>'),
    text: bytesOf(' t="inlineStr"><is><t xml:space="preserve">'),
    boolean: bytesOf(' t="b"><v>'),
    // A cell with neither value nor style is left out: exceljs would read it as part of a merge.
    keepEmpty: style !== 0,
  };
}

const ROW_OPEN = bytesOf('<row r="');
const ROW_OPENED = bytesOf('">');
const ROW_CLOSE = bytesOf('</row>');
const VALUE_CLOSE = bytesOf('</v></c>');
const TEXT_CLOSE = bytesOf('</t></is></c>');
const EMPTY_CLOSE = bytesOf('/>');
const DIGIT_ONE = 49;
const DIGIT_ZERO = 48;

/**
 * Writes rows of cells as sheet XML bytes, numbered from `firstRow`. Numbers (finite) as numbers, text as inline
 * strings, booleans as booleans; null, '', NaN and ±Infinity as empty cells, and any non-number in a numeric column.
 */
export function rowsXml(columns: SheetColumn[], firstRow: number) {
  const pieces = columns.map((column, c) => cellPieces(columnLetters(c), column.style));
  const numeric = columns.map((column) => column.numeric);
  // The most a row's cells take besides their text: the longest pieces, a reference and a number each.
  const rowBytes =
    64 + pieces.reduce((sum, p) => sum + p.at.length + p.referenced.length + p.text.length + 24 + NUMBER_BYTES, 0);
  const bytes = new Bytes(1 << 20);
  let next = firstRow;
  return {
    /** The XML of `rowCount` rows taken from each column's values (`undefined`: an empty column). */
    write(values: (ArrayLike<Cell> | undefined)[], rowCount: number): Uint8Array {
      const count = columns.length;
      for (let i = 0; i < rowCount; i++, next++) {
        bytes.reserve(rowBytes);
        let buffer = bytes.buffer;
        let at = put(buffer, bytes.length, ROW_OPEN);
        const numberStart = at;
        at = putNumber(buffer, at, next);
        const numberEnd = at;
        at = put(buffer, at, ROW_OPENED);
        // Whether the previous column's cell was written: if not, the next cell needs its reference.
        let follows = false;
        for (let c = 0; c < count; c++) {
          const column = values[c];
          const value = column === undefined ? null : column[i];
          const piece = pieces[c];
          const type = typeof value;
          const empty =
            value === '' ||
            value === null ||
            value === undefined ||
            (type === 'number' ? !Number.isFinite(value) : numeric[c]);
          if (empty && !piece.keepEmpty) {
            follows = false;
            continue;
          }
          if (follows) at = put(buffer, at, piece.open);
          else {
            at = put(buffer, at, piece.at);
            for (let k = numberStart; k < numberEnd; k++) buffer[at++] = buffer[k];
            at = put(buffer, at, piece.referenced);
          }
          follows = true;
          if (empty) at = put(buffer, at, EMPTY_CLOSE);
          else if (type === 'number') {
            at = put(buffer, at, piece.number);
            at = putNumber(buffer, at, value as number);
            at = put(buffer, at, VALUE_CLOSE);
          } else if (type === 'boolean') {
            at = put(buffer, at, piece.boolean);
            buffer[at++] = value ? DIGIT_ONE : DIGIT_ZERO;
            at = put(buffer, at, VALUE_CLOSE);
          } else {
            at = put(buffer, at, piece.text);
            const text = xmlText(value as string);
            bytes.length = at;
            bytes.reserve(text.length * 3 + rowBytes);
            buffer = bytes.buffer;
            at += encoder.encodeInto(text, buffer.subarray(at)).written;
            at = put(buffer, at, TEXT_CLOSE);
          }
        }
        bytes.length = put(buffer, at, ROW_CLOSE);
      }
      return bytes.take();
    },
    /** The number of the last row written. */
    lastRow: () => next - 1,
  };
}

/**
 * The rows' XML and the sheet's end, deflated in fflate's own worker while the export's worker writes the next
 * rows, and checksummed on the way. One deflate stream, which the sheet's start (stored, added last) precedes.
 */
function deflatedRows() {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let crc = 0;
  let size = 0;
  let settle: { resolve: (chunks: Uint8Array<ArrayBuffer>[]) => void; reject: (error: Error) => void };
  const done = new Promise<Uint8Array<ArrayBuffer>[]>((resolve, reject) => (settle = { resolve, reject }));
  done.catch(() => undefined);
  const deflate = new AsyncDeflate({ level: DEFLATE_LEVEL }, (error, chunk, final) => {
    if (error) return settle.reject(error);
    chunks.push(chunk);
    if (final) settle.resolve(chunks);
  });
  const push = (bytes: Uint8Array, final = false) => {
    crc = crc32(crc, bytes);
    size += bytes.length;
    // Hands the buffer over to fflate's worker (transferred, not copied).
    deflate.push(bytes, final);
  };
  return {
    push,
    async end(suffix: Uint8Array) {
      push(suffix, true);
      return { chunks: await done, crc, size };
    },
  };
}

/**
 * `bytes` as deflate's stored (uncompressed), non-final blocks, which another deflate stream may follow: they end on
 * a byte boundary. The sheet's start is a few kilobytes, and fflate's sync flush misplaces the bits of a partial
 * last byte, so it is not compressed.
 */
function storedBlocks(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const MAX = 65535;
  const blocks = Math.max(1, Math.ceil(bytes.length / MAX));
  const out = new Uint8Array(bytes.length + blocks * 5);
  let at = 0;
  for (let from = 0, b = 0; b < blocks; b++, from += MAX) {
    const length = Math.min(MAX, bytes.length - from);
    // BFINAL 0, BTYPE 00, then LEN and its complement, little-endian.
    out.set([0, length & 255, length >> 8, ~length & 255, (~length >> 8) & 255], at);
    out.set(bytes.subarray(from, from + length), at + 5);
    at += 5 + length;
  }
  return out;
}

/**
 * A workbook made of exceljs's scaffold (`scaffold`: the bytes of its .xlsx, whose row `templateRow` holds each
 * column's style) and rows added block by block. The sheet's start waits until `finish`, since its `dimension`
 * element needs the row count; the rows are deflated meanwhile as a stream of their own, and the sheet's zip entry
 * is the start (stored) followed by their stream, with the checksums combined.
 */
export function streamedWorkbook(scaffold: Uint8Array, templateRow: number, columnCount: number, numeric: boolean[]) {
  const parts = unzipSync(scaffold);
  const template = sheetTemplate(strFromU8(parts[SHEET_PART]), templateRow, columnCount);
  const rows = rowsXml(
    template.styles.map((style, c) => ({ style, numeric: numeric[c] })),
    templateRow,
  );
  const deflated = deflatedRows();
  return {
    add(values: (ArrayLike<Cell> | undefined)[], rowCount: number) {
      deflated.push(rows.write(values, rowCount));
    },
    /** The .xlsx file's bytes: the scaffold's parts, the sheet with its real rows. */
    async finish(): Promise<Uint8Array> {
      const end = await deflated.end(bytesOf(template.suffix));
      const lastRow = Math.max(templateRow - 1, rows.lastRow());
      const dimension = `<dimension ref="A1:${columnLetters(Math.max(0, columnCount - 1))}${lastRow}"/>`;
      const start = bytesOf(template.prefix.replace(/<dimension ref="[^"]*"\/>/, dimension));
      const sheet: ZipInputFile = {
        filename: SHEET_PART,
        compression: 8,
        size: start.length + end.size,
        crc: crc32Combine(crc32(0, start), end.crc, end.size),
      };
      const out: Uint8Array<ArrayBuffer>[] = [];
      const zip = new Zip((error, chunk) => {
        if (error) throw error;
        out.push(chunk);
      });
      for (const [name, data] of Object.entries(parts)) {
        if (name.endsWith('/')) continue;
        if (name === SHEET_PART) {
          zip.add(sheet);
          const chunks = [storedBlocks(start), ...end.chunks];
          chunks.forEach((chunk, i) => sheet.ondata!(null, chunk, i === chunks.length - 1));
          continue;
        }
        const file = new ZipDeflate(name, { level: DEFLATE_LEVEL });
        zip.add(file);
        file.push(data, true);
      }
      // Every part is complete: the zip's end comes synchronously. The pieces become one buffer for the page.
      zip.end();
      return new Uint8Array(await new Blob(out).arrayBuffer());
    },
  };
}
