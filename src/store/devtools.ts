/**
 * Redux DevTools serialises every action and state on each dispatch; large query results would make
 * it crawl. Arrays longer than this are replaced by a short description.
 */
const MAX_ARRAY_LENGTH = 50;
const MAX_DEPTH = 8;

function summarise(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY_LENGTH) return `<<${value.length} items>>`;
    return depth >= MAX_DEPTH ? '<<array>>' : value.map((item) => summarise(item, depth + 1));
  }
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    return `<<${value.byteLength} bytes>>`;
  }
  if (value && typeof value === 'object') {
    if (depth >= MAX_DEPTH) return '<<object>>';
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = summarise(item, depth + 1);
    return out;
  }
  return value;
}

export function sanitizeAction<A>(action: A): A {
  return summarise(action, 0) as A;
}

export function sanitizeState<S>(state: S): S {
  return summarise(state, 0) as S;
}
