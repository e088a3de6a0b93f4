import { z } from 'zod';
import { type CopernicaNode, INTEGRATION_ERRORS } from '../../src/contracts/integrations';
import { callProvider, joinUrl, ProviderError, type ProviderAdapter, type ProviderContext } from './provider';

const identitySchema = z.object({ id: z.union([z.number(), z.string()]), name: z.string() });
const pageSchema = z.object({
  data: z.array(
    z.object({ ID: z.union([z.number(), z.string()]), name: z.string(), 'has-children': z.boolean().optional() }),
  ),
});

async function copernicaGet(context: ProviderContext, token: string, path: string, failure: string) {
  return callProvider(context, joinUrl(context.config.COPERNICA_API_URL, path), failure, {
    headers: { authorization: `Bearer ${token}` },
  });
}

/** One page of up to 1000 databases or views (Copernica's own maximum), as tree nodes. */
async function listNodes(context: ProviderContext, token: string, path: string, databases: boolean) {
  const failure = INTEGRATION_ERRORS.copernicaDatabases;
  const parsed = pageSchema.safeParse(await copernicaGet(context, token, `${path}?limit=1000`, failure));
  if (!parsed.success) throw new ProviderError(failure);
  return parsed.data.data.map((item): CopernicaNode => ({
    id: String(item.ID),
    name: item.name,
    // A database always holds views to open; a view only when Copernica says it has sub-views.
    has_children: databases || item['has-children'] === true,
  }));
}

/** Copernica REST v4 with an access token: identity for the account, then databases → views → views. */
export const copernica: ProviderAdapter<{ token: string }> & {
  databases(context: ProviderContext, token: string): Promise<CopernicaNode[]>;
  databaseViews(context: ProviderContext, token: string, databaseId: string): Promise<CopernicaNode[]>;
  viewViews(context: ProviderContext, token: string, viewId: string): Promise<CopernicaNode[]>;
} = {
  async listUnits(context, { token }) {
    const answer = await copernicaGet(context, token, '/v4/identity', INTEGRATION_ERRORS.copernica);
    const parsed = identitySchema.safeParse(answer);
    if (!parsed.success) throw new ProviderError(INTEGRATION_ERRORS.copernica);
    return [{ id: String(parsed.data.id), name: parsed.data.name }];
  },
  databases: (context, token) => listNodes(context, token, '/v4/databases', true),
  databaseViews: (context, token, databaseId) => listNodes(context, token, `/v4/database/${databaseId}/views`, false),
  viewViews: (context, token, viewId) => listNodes(context, token, `/v4/view/${viewId}/views`, false),
};
