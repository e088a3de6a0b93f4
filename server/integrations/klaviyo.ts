import { z } from 'zod';
import { INTEGRATION_ERRORS } from '../../src/contracts/integrations';
import { callProvider, joinUrl, ProviderError, type ProviderAdapter, type ProviderContext } from './provider';

/** The API revision the adapter was written against (Klaviyo pins behaviour by this header). */
export const KLAVIYO_REVISION = '2025-01-15';

const accountsSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      attributes: z.object({ contact_information: z.object({ organization_name: z.string().nullish() }).partial() }),
    }),
  ),
});

export function klaviyoHeaders(apiKey: string): Record<string, string> {
  return { authorization: `Klaviyo-API-Key ${apiKey}`, revision: KLAVIYO_REVISION, accept: 'application/vnd.api+json' };
}

export async function klaviyoGet(context: ProviderContext, apiKey: string, path: string): Promise<unknown> {
  return callProvider(context, joinUrl(context.config.KLAVIYO_API_URL, path), INTEGRATION_ERRORS.klaviyo, {
    headers: klaviyoHeaders(apiKey),
  });
}

/** Klaviyo: a private API key; `GET /api/accounts` answers the account(s) it belongs to, 401 for a bad key. */
export const klaviyo: ProviderAdapter<{ apiKey: string }> = {
  async listUnits(context, { apiKey }) {
    const parsed = accountsSchema.safeParse(await klaviyoGet(context, apiKey, '/api/accounts'));
    if (!parsed.success) throw new ProviderError(INTEGRATION_ERRORS.klaviyo);
    return parsed.data.data.map((account) => ({
      id: account.id,
      name: account.attributes.contact_information.organization_name ?? account.id,
    }));
  },
};
