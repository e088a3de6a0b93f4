import type { PowChallenge } from './auth';

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function sameBytes(digest: ArrayBuffer, expected: Uint8Array): boolean {
  const actual = new Uint8Array(digest);
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < actual.length; i += 1) if (actual[i] !== expected[i]) return false;
  return true;
}

/** Digests in flight at once: awaiting each one alone costs more than the hashing itself. */
const BATCH = 500;

/**
 * Solves the sign-in bot check: finds n with SHA-256(salt + n) = challenge and returns the token
 * POST /api/login/email/start expects (base64 of the solution as JSON), or null when no n up to
 * maxnumber fits. WebCrypto only, so browsers and Node run the same code.
 */
export async function solveChallenge(challenge: PowChallenge): Promise<string | null> {
  const encoder = new TextEncoder();
  const expected = fromHex(challenge.challenge);
  for (let start = 0; start <= challenge.maxnumber; start += BATCH) {
    const end = Math.min(start + BATCH - 1, challenge.maxnumber);
    const pending: Promise<ArrayBuffer>[] = [];
    for (let n = start; n <= end; n += 1) {
      pending.push(globalThis.crypto.subtle.digest('SHA-256', encoder.encode(`${challenge.salt}${n}`)));
    }
    const index = (await Promise.all(pending)).findIndex((digest) => sameBytes(digest, expected));
    if (index >= 0) {
      const solution = {
        algorithm: challenge.algorithm,
        challenge: challenge.challenge,
        number: start + index,
        salt: challenge.salt,
        signature: challenge.signature,
      };
      return btoa(JSON.stringify(solution));
    }
  }
  return null;
}
