import { type z } from 'zod';

/**
 * Every workspace's value stored under `prefix` + workspace id, as `schema` reads it. An entry whose key names no
 * workspace, or whose value is not JSON or not of the schema, is left out: that workspace starts from its default.
 */
export function readPerWorkspace<S extends z.ZodType>(
  storage: Pick<Storage, 'getItem' | 'key' | 'length'>,
  prefix: string,
  schema: S,
): Record<string, z.infer<S>> {
  const byWorkspace: Record<string, z.infer<S>> = {};
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    if (!key?.startsWith(prefix)) continue;
    const workspaceId = key.slice(prefix.length);
    if (!/^[1-9]\d*$/.test(workspaceId)) continue;
    try {
      const parsed = schema.safeParse(JSON.parse(storage.getItem(key) ?? 'null'));
      if (parsed.success) byWorkspace[workspaceId] = parsed.data;
    } catch {
      // Not JSON: ignored like any other unreadable value.
    }
  }
  return byWorkspace;
}
