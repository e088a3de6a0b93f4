/**
 * Splits an Arrow IPC stream into several smaller, complete streams without decoding any data: each slice
 * is the schema message, every dictionary message seen so far, some record-batch messages and the end
 * marker. Framing (Arrow IPC spec): 0xFFFFFFFF, an int32 metadata length, the flatbuffer Message, the body.
 */

const CONTINUATION = 0xffffffff;
const HEADER_SCHEMA = 1;
const HEADER_DICTIONARY = 2;
const HEADER_RECORD_BATCH = 3;
const END_OF_STREAM = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

interface Message {
  type: number;
  bytes: Uint8Array;
}

/** Reads header_type (field 1) and bodyLength (field 3) of a flatbuffer Message table. */
function readMessageHeader(view: DataView, start: number): { type: number; bodyLength: number } {
  const table = start + view.getUint32(start, true);
  const vtable = table - view.getInt32(table, true);
  const vtableSize = view.getUint16(vtable, true);
  const field = (index: number) => {
    const at = 4 + index * 2;
    return at < vtableSize ? view.getUint16(vtable + at, true) : 0;
  };
  const typeOffset = field(1);
  const bodyOffset = field(3);
  const type = typeOffset ? view.getUint8(table + typeOffset) : 0;
  const bodyLength = bodyOffset ? Number(view.getBigInt64(table + bodyOffset, true)) : 0;
  return { type, bodyLength };
}

function* messages(bytes: Uint8Array): Generator<Message> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  while (offset + 8 <= bytes.byteLength) {
    let prefix = 4;
    let length = view.getUint32(offset, true);
    // Streams from before Arrow 0.15 have no continuation marker.
    if (length === CONTINUATION) {
      length = view.getInt32(offset + 4, true);
      prefix = 8;
    }
    if (length === 0) return;
    const metadata = offset + prefix;
    const { type, bodyLength } = readMessageHeader(view, metadata);
    const end = metadata + length + bodyLength;
    if (end > bytes.byteLength) throw new Error('Truncated Arrow stream');
    yield { type, bytes: bytes.subarray(offset, end) };
    offset = end;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Complete IPC streams of at most about `maxBytes` of record batches each (at least one batch each). */
export function* ipcSlices(bytes: Uint8Array, maxBytes: number): Generator<Uint8Array> {
  const prefix: Uint8Array[] = [];
  let batches: Uint8Array[] = [];
  let size = 0;
  const flush = () => {
    const slice = concat([...prefix, ...batches, END_OF_STREAM]);
    batches = [];
    size = 0;
    return slice;
  };
  for (const message of messages(bytes)) {
    if (message.type === HEADER_SCHEMA || message.type === HEADER_DICTIONARY) {
      // A dictionary must precede the batches using it; earlier slices already carry what they need.
      if (batches.length) yield flush();
      prefix.push(message.bytes);
    } else if (message.type === HEADER_RECORD_BATCH) {
      batches.push(message.bytes);
      size += message.bytes.byteLength;
      if (size >= maxBytes) yield flush();
    }
  }
  if (batches.length) yield flush();
}
