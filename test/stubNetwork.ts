/**
 * Network stub for RTK Query tests in the node environment: relative URLs resolve against a fake origin
 * (as a browser would resolve them against the page), and every call goes to `handler`.
 */
export type StubHandler = (request: Request) => Response | Promise<Response>;

const ORIGIN = 'http://openrate.test';

export function stubNetwork(handler: StubHandler): { calls: Request[]; restore: () => void } {
  const originalRequest = globalThis.Request;
  const originalFetch = globalThis.fetch;
  const calls: Request[] = [];
  class RelativeRequest extends originalRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, ORIGIN).href : input, init);
    }
  }
  globalThis.Request = RelativeRequest;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new RelativeRequest(input, init);
    calls.push(request);
    return handler(request);
  };
  return {
    calls,
    restore() {
      globalThis.Request = originalRequest;
      globalThis.fetch = originalFetch;
    },
  };
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
