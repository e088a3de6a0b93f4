/**
 * For the icon tests: a stand-in for `fetch` that serves the icon files in `served` (404 otherwise) and records every
 * URL asked for. jsdom has no fetch; this is the part of a response the loader reads (`src/app/icons.ts`).
 */
export function iconFiles(served: Record<string, string[]>) {
  const requested: string[] = [];
  const fetchFn = (async (url: string) => {
    requested.push(url);
    const paths = served[url];
    return { ok: Boolean(paths), status: paths ? 200 : 404, json: async () => paths };
  }) as unknown as typeof fetch;
  return { requested, fetchFn };
}
