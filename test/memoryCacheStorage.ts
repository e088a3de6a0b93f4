/**
 * The part of the browser's Cache Storage the dataset store uses (open, delete; match, put, keys, delete), in
 * memory, for tests in Node where `caches` does not exist. Bodies are read once per match, as in a browser.
 */
export function memoryCacheStorage(): CacheStorage & { names(): string[] } {
  const caches = new Map<string, Map<string, { body: ArrayBuffer; headers: Headers }>>();
  // Relative URLs resolve against the page, as in a browser.
  const keyOf = (request: RequestInfo | URL) =>
    new URL(request instanceof Request ? request.url : String(request), 'http://localhost/').href;

  function cache(entries: Map<string, { body: ArrayBuffer; headers: Headers }>): Cache {
    const partial: Pick<Cache, 'match' | 'put' | 'keys' | 'delete'> = {
      async match(request) {
        const entry = entries.get(keyOf(request));
        return entry && new Response(entry.body.slice(0), { headers: entry.headers });
      },
      async put(request, response) {
        entries.set(keyOf(request), { body: await response.arrayBuffer(), headers: new Headers(response.headers) });
      },
      async keys() {
        return [...entries.keys()].map((url) => new Request(url));
      },
      async delete(request) {
        return entries.delete(keyOf(request));
      },
    };
    return partial as Cache;
  }

  const storage: Pick<CacheStorage, 'open' | 'delete'> & { names(): string[] } = {
    async open(name) {
      if (!caches.has(name)) caches.set(name, new Map());
      return cache(caches.get(name)!);
    },
    async delete(name) {
      return caches.delete(name);
    },
    names: () => [...caches.keys()],
  };
  return storage as CacheStorage & { names(): string[] };
}
