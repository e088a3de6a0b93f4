/** CRC-32 (the zip format's checksum), for a zip entry whose pieces are deflated apart (xlsxSheet.ts). */

/** Eight tables of 256: the byte-wise table, then each the one before advanced by a zero byte (slicing-by-8). */
const TABLES = (() => {
  const tables = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  for (let i = 256; i < tables.length; i++) tables[i] = (tables[i - 256] >>> 8) ^ tables[tables[i - 256] & 255];
  return tables;
})();

/**
 * The CRC-32 of what `crc` covered followed by `bytes` (start from 0). Eight bytes a step: the sheet's XML is
 * checksummed on the export's thread, byte by byte it took a second for 10^5 rows × 30 on a loaded machine.
 */
export function crc32(crc: number, bytes: Uint8Array): number {
  const t = TABLES;
  let c = ~crc;
  let i = 0;
  for (const end = bytes.length - 7; i < end; i += 8) {
    const low = c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
    c =
      t[1792 + (low & 255)] ^
      t[1536 + ((low >>> 8) & 255)] ^
      t[1280 + ((low >>> 16) & 255)] ^
      t[1024 + (low >>> 24)] ^
      t[768 + bytes[i + 4]] ^
      t[512 + bytes[i + 5]] ^
      t[256 + bytes[i + 6]] ^
      t[bytes[i + 7]];
  }
  for (; i < bytes.length; i++) c = t[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return ~c >>> 0;
}

/** `vector` times a 32 × 32 matrix over GF(2). */
function times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0; vector; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i];
  return sum >>> 0;
}

function square(target: Uint32Array, matrix: Uint32Array) {
  for (let n = 0; n < 32; n++) target[n] = times(matrix, matrix[n]);
}

/**
 * The CRC-32 of A followed by B from A's and B's and B's length (zlib's crc32_combine): the sheet's rows are
 * checksummed as they are written, before the part that precedes them is known.
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  // The operator for one zero bit, then for two and four.
  odd[0] = 0xedb88320;
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row;
  square(even, odd);
  square(odd, even);
  let crc = crcA;
  let length = lengthB;
  // Applies the operator for `length` zero bytes, squaring it bit by bit of the length.
  for (;;) {
    square(even, odd);
    if (length % 2) crc = times(even, crc);
    length = Math.floor(length / 2);
    if (!length) break;
    square(odd, even);
    if (length % 2) crc = times(odd, crc);
    length = Math.floor(length / 2);
    if (!length) break;
  }
  return (crc ^ crcB) >>> 0;
}
