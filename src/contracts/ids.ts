/**
 * Ids the client makes for the things it creates (widgets, alert rules, targets, idempotency keys). Built from
 * `crypto.getRandomValues`, which every browser offers; `crypto.randomUUID` exists only in secure contexts (https or
 * localhost), so a team serving the product over plain http on its LAN could not create anything with it.
 */

const toHex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** `byteCount` random bytes as lowercase hex (two characters a byte). */
export const randomHex = (byteCount: number): string => toHex(crypto.getRandomValues(new Uint8Array(byteCount)));

/** A random (version 4, RFC 9562) UUID in its lowercase 8-4-4-4-12 form, as `crypto.randomUUID` makes. */
export function newUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // variant 10xx
  const hex = toHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
