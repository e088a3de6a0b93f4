import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * Outbound HTTP for every address a user can type (webhook URLs, a provider's hostname) or a provider returns.
 *
 * The server sits inside a network a user must not reach through it (SSRF): the database, the cloud's metadata
 * service, other services on loopback. So a call is refused unless every address its host resolves to is public,
 * and the connection is made to the address that was checked (the check runs in the socket's own DNS lookup), so a
 * name that answers a public address to the check and 127.0.0.1 to the connect (DNS rebinding) cannot slip through.
 * Redirects are never followed (a 3xx is answered as is): a public server could redirect to a private one.
 * Hosts the operator configured (a provider simulator, a test receiver) may be exempted by name.
 */

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

export type RefusalReason = 'protocol' | 'address' | 'dns' | 'timeout' | 'too-large' | 'network';

/** Why a call was not made or not finished; its message never contains the request's headers or body. */
export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole call, connect to last byte. @default 5000 */
  timeoutMs?: number;
  /** A larger answer is cut off and refused. @default 1 MiB */
  maxResponseBytes?: number;
  /** `host[:port]` values exempt from the address rule: hosts the operator configured, never user input. */
  allowedHosts?: readonly string[];
  signal?: AbortSignal;
}

export interface SafeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  json(): unknown;
}

/** Address ranges no outbound call may reach: loopback, private, link-local (cloud metadata), shared, reserved. */
const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, compatible ::a.b.c.d). */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True when an address may be called: a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const inner = embeddedIpv4(address);
  if (inner !== undefined) return isPublicAddress(inner);
  return !blocked.check(address, 'ipv6');
}

/** `host[:port]` as URL.host spells it without the default port, for comparing with allowedHosts. */
function hostKey(url: URL): string {
  return url.host.toLowerCase();
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** A socket lookup that answers only public addresses, so the connection goes where the check looked. */
function checkedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused || addresses.length === 0) {
      return callback(
        Object.assign(new OutboundError('address', `${hostname} resolves to an address that may not be called`), {
          code: 'EADDRNOTPUBLIC',
        }),
        [],
      );
    }
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
}

/** Checks a URL before any connection: scheme, and a literal address's range. Throws an OutboundError. */
export function checkOutboundUrl(input: string | URL, allowedHosts: readonly string[] = []): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundError('protocol', 'Not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('protocol', 'Only http and https addresses may be called');
  }
  if (allowedHosts.map((host) => host.toLowerCase()).includes(hostKey(url))) return url;
  // URL has already turned decimal, octal and hex forms (http://2130706433/) into dotted quads.
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (net.isIP(literal) && !isPublicAddress(literal)) {
    throw new OutboundError('address', `${url.hostname} is not a public address`);
  }
  return url;
}

/**
 * How long a save waits for the host's addresses. `dns.lookup` itself has no timeout (a resolver that does not
 * answer holds it for as long as the system's resolver retries), and a save request must not hang on it.
 */
export const DEFAULT_LOOKUP_TIMEOUT_MS = 4_000;

export interface HostCheckOptions {
  /** @default 4000 */
  lookupTimeoutMs?: number;
  /** The resolver; tests pass a slow or fixed one. @default dns.promises.lookup */
  lookup?: (hostname: string, options: { all: true }) => Promise<dns.LookupAddress[]>;
}

/** The host's addresses, or [] when it does not resolve; an OutboundError('timeout') when the resolver is slow. */
async function lookupWithin(
  hostname: string,
  { lookupTimeoutMs, lookup }: HostCheckOptions,
): Promise<dns.LookupAddress[]> {
  const timeoutMs = lookupTimeoutMs ?? DEFAULT_LOOKUP_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new OutboundError('timeout', `${hostname} did not resolve within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  const addresses = (lookup ?? dns.promises.lookup)(hostname, { all: true }).catch(() => []);
  try {
    return await Promise.race([addresses, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * checkOutboundUrl, then the addresses the host resolves to now: for refusing a private webhook URL when it is
 * saved (each call checks again, as the answer may change). A name that does not resolve (yet) is not refused; one
 * whose resolver does not answer in time is (OutboundError 'timeout'), as it could not be checked.
 */
export async function checkOutboundHost(
  input: string | URL,
  allowedHosts: readonly string[] = [],
  options: HostCheckOptions = {},
): Promise<URL> {
  const url = checkOutboundUrl(input, allowedHosts);
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (net.isIP(literal) || allowedHosts.map((host) => host.toLowerCase()).includes(hostKey(url))) return url;
  const addresses = await lookupWithin(literal, options);
  if (addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw new OutboundError('address', `${url.hostname} resolves to an address that may not be called`);
  }
  return url;
}

/**
 * One HTTP(S) call under the rules above. Answers every status (3xx included, not followed); throws an
 * OutboundError when refused, timed out, too large or the network failed.
 */
export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const allowedHosts = options.allowedHosts ?? [];
  const url = checkOutboundUrl(input, allowedHosts);
  const exempt = allowedHosts.map((host) => host.toLowerCase()).includes(hostKey(url));
  const timeoutMs = options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const transport = url.protocol === 'https:' ? https : http;

  return await new Promise<SafeResponse>((resolve, reject) => {
    let settled = false;
    const fail = (error: OutboundError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(error);
    };
    const request = transport.request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        lookup: exempt ? undefined : (checkedLookup as unknown as net.LookupFunction),
        // Keep-alive sockets would skip the lookup (and its check) for later calls.
        agent: false,
        signal: options.signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return fail(new OutboundError('too-large', `The answer exceeded ${maxBytes} bytes`));
          chunks.push(chunk);
        });
        response.on('error', () => fail(new OutboundError('network', 'The connection failed')));
        response.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const body = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            text: () => body.toString('utf8'),
            json: () => JSON.parse(body.toString('utf8')) as unknown,
          });
        });
      },
    );
    const timer = setTimeout(() => fail(new OutboundError('timeout', `No answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof OutboundError) return fail(error);
      if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
        return fail(new OutboundError('dns', `${url.hostname} could not be resolved`));
      }
      // The socket's lookup wraps our refusal; keep its reason rather than calling it a network failure.
      if (error.code === 'EADDRNOTPUBLIC') return fail(new OutboundError('address', error.message));
      return fail(
        new OutboundError('network', error.code ? `The connection failed (${error.code})` : 'The connection failed'),
      );
    });
    if (options.body !== undefined) request.write(options.body);
    request.end();
  });
}
