import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * OAuth 1.0a request signing (RFC 5849) with HMAC-SHA1, "one-legged" as Mail+ uses it: the consumer key and secret
 * sign every request and there is no token (its secret is empty).
 */

/** RFC 3986 percent-encoding (section 3.6): encodeURIComponent leaves !'()* as they are, OAuth encodes them. */
export const percentEncode = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The signature base string (section 3.4.1): the method, the URL without query or fragment, and every query and
 * oauth/body parameter, encoded, sorted by name then value, and encoded again.
 */
export function signatureBaseString(method: string, url: string, parameters: [string, string][]): string {
  const parsed = new URL(url);
  const baseUri = `${parsed.protocol}//${parsed.host.toLowerCase()}${parsed.pathname}`;
  const normalized = [...parsed.searchParams.entries(), ...parameters]
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([nameA, valueA], [nameB, valueB]) =>
      nameA === nameB ? (valueA < valueB ? -1 : valueA > valueB ? 1 : 0) : nameA < nameB ? -1 : 1,
    )
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return [method.toUpperCase(), percentEncode(baseUri), percentEncode(normalized)].join('&');
}

/** HMAC-SHA1 of the base string keyed by the encoded consumer and token secrets (section 3.4.2), base64. */
export const hmacSha1Signature = (baseString: string, consumerSecret: string, tokenSecret = ''): string =>
  createHmac('sha1', `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`)
    .update(baseString)
    .digest('base64');

export interface OAuth1Request {
  method: string;
  url: string;
  consumerKey: string;
  consumerSecret: string;
  nonce?: string;
  timestamp?: number;
}

/** The `Authorization: OAuth …` header of one request (section 3.5.1). */
export function oauth1Authorization(request: OAuth1Request): string {
  const oauth: [string, string][] = [
    ['oauth_consumer_key', request.consumerKey],
    ['oauth_nonce', request.nonce ?? randomBytes(16).toString('hex')],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', String(request.timestamp ?? Math.floor(Date.now() / 1000))],
    ['oauth_version', '1.0'],
  ];
  const signature = hmacSha1Signature(signatureBaseString(request.method, request.url, oauth), request.consumerSecret);
  const parameters = [...oauth, ['oauth_signature', signature]];
  return `OAuth ${parameters.map(([name, value]) => `${percentEncode(name)}="${percentEncode(value)}"`).join(', ')}`;
}

/** The parameters of an `Authorization: OAuth …` header, decoded; null when it is not one. */
export function parseOauth1Header(header: string | undefined): Map<string, string> | null {
  if (!header?.startsWith('OAuth ')) return null;
  const parameters = new Map<string, string>();
  for (const part of header.slice(6).split(',')) {
    const match = /^\s*([^=\s]+)="([^"]*)"\s*$/.exec(part);
    if (!match) return null;
    parameters.set(decodeURIComponent(match[1]), decodeURIComponent(match[2]));
  }
  return parameters;
}

/** Whether a signed request's signature is the consumer secret's over this method and URL (no token). */
export function verifyOauth1(method: string, url: string, header: string | undefined, consumerSecret: string): boolean {
  const parameters = parseOauth1Header(header);
  const signature = parameters?.get('oauth_signature');
  if (!parameters || !signature || parameters.get('oauth_signature_method') !== 'HMAC-SHA1') return false;
  const signed = [...parameters].filter(([name]) => name !== 'oauth_signature' && name !== 'realm');
  const expected = Buffer.from(hmacSha1Signature(signatureBaseString(method, url, signed), consumerSecret));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
