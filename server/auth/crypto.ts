import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** An unguessable value for cookies and links: 32 random bytes, base64url. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** What the database keeps instead of a secret the browser holds. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Compares two strings without leaking where they differ through timing. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
