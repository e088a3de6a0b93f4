import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { checkOutboundHost, checkOutboundUrl, isPublicAddress, OutboundError, safeFetch } from './safeFetch';

let server: http.Server | undefined;
let port = 0;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/slow') return; // never answers
    if (request.url === '/redirect') {
      response.writeHead(302, { Location: 'http://127.0.0.1:1/' }).end();
      return;
    }
    if (request.url === '/large') {
      response.end(Buffer.alloc(64 * 1024, 'x'));
      return;
    }
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => response.end(JSON.stringify({ method: request.method, body })));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, START_TIMEOUT_MS);
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OutboundError) return error.reason;
    throw error;
  }
  throw new Error('the call was made');
}

describe('outbound calls (SSRF defence)', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:PORT/'],
    ['loopback in decimal', 'http://2130706433:PORT/'],
    ['loopback in hex', 'http://0x7f000001:PORT/'],
    ['loopback, short form', 'http://127.1:PORT/'],
    ['IPv6 loopback', 'http://[::1]:PORT/'],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]:PORT/'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a private network', 'http://10.1.2.3/'],
    ['a private network (172.16/12)', 'http://172.20.0.1/'],
    ['a private network (192.168/16)', 'https://192.168.1.1/'],
    ['shared address space', 'http://100.64.0.1/'],
    ['unspecified', 'http://0.0.0.0:PORT/'],
    ['IPv6 unique local', 'http://[fd00::1]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['NAT64 of loopback', 'http://[64:ff9b::7f00:1]/'],
  ])('refuses %s before connecting', async (_name, address) => {
    const before = hits.length;
    expect(await refusal(safeFetch(address.replace('PORT', String(port)), { timeoutMs: 2000 }))).toBe('address');
    expect(hits.length).toBe(before);
  });

  it('refuses a name that resolves to loopback, at connect time', async () => {
    const before = hits.length;
    expect(await refusal(safeFetch(`http://localhost:${port}/`, { timeoutMs: 2000 }))).toBe('address');
    expect(hits.length).toBe(before);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'not a url'])(
    'refuses %s: http and https only',
    async (address) => {
      expect(await refusal(safeFetch(address))).toBe('protocol');
    },
  );

  it('calls a host the operator allowed, with method and body, and answers status and body', async () => {
    const answer = await safeFetch(`http://127.0.0.1:${port}/hook`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'Content-Type': 'application/json' },
      allowedHosts: [`127.0.0.1:${port}`],
    });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ method: 'POST', body: '{"a":1}' });
  });

  it('an allowance names host and port: another port on the same host stays refused', async () => {
    expect(await refusal(safeFetch(`http://127.0.0.1:${port}/`, { allowedHosts: ['127.0.0.1:1'] }))).toBe('address');
  });

  it('does not follow a redirect', async () => {
    const answer = await safeFetch(`http://127.0.0.1:${port}/redirect`, { allowedHosts: [`127.0.0.1:${port}`] });
    expect(answer.status).toBe(302);
  });

  it('gives up on a server that does not answer within the timeout', async () => {
    const call = safeFetch(`http://127.0.0.1:${port}/slow`, { timeoutMs: 300, allowedHosts: [`127.0.0.1:${port}`] });
    expect(await refusal(call)).toBe('timeout');
  });

  it('cuts off an answer larger than the cap', async () => {
    const call = safeFetch(`http://127.0.0.1:${port}/large`, {
      maxResponseBytes: 1024,
      allowedHosts: [`127.0.0.1:${port}`],
    });
    expect(await refusal(call)).toBe('too-large');
  });

  it('classifies public and private addresses', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:2800:220:1:248:1893:25c8:1946')).toBe(true);
    expect(isPublicAddress('::ffff:93.184.216.34')).toBe(true);
    expect(isPublicAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isPublicAddress('not-an-ip')).toBe(false);
    expect(checkOutboundUrl('https://api.example.com/v1').hostname).toBe('api.example.com');
  });
});

describe('checking a webhook host when it is saved', () => {
  const answering =
    (...addresses: string[]) =>
    () =>
      Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

  it('refuses a name that resolves to a private address, accepts one that resolves to public ones', async () => {
    const url = 'https://hooks.example.com/x';
    expect(await refusal(checkOutboundHost(url, [], { lookup: answering('93.184.216.34', '10.0.0.5') }))).toBe(
      'address',
    );
    const checked = await checkOutboundHost(url, [], { lookup: answering('93.184.216.34', '2606:2800:220::1') });
    expect(checked.hostname).toBe('hooks.example.com');
  });

  it('accepts a name that does not resolve (yet): each delivery checks again at connect time', async () => {
    const failing = () => Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
    expect((await checkOutboundHost('https://later.example.com/', [], { lookup: failing })).hostname).toBe(
      'later.example.com',
    );
  });

  it('gives up on a resolver that does not answer within the timeout', async () => {
    const silent = () => new Promise<never>(() => undefined);
    const check = checkOutboundHost('https://slow.example.com/', [], { lookup: silent, lookupTimeoutMs: 50 });
    expect(await refusal(check)).toBe('timeout');
  });
});
