import { z } from 'zod';
import { INTEGRATION_ERRORS } from '../../src/contracts/integrations';
import { clientCredentialsToken } from './oauthClient';
import { callProvider, joinUrl, ProviderError, type ProviderAdapter } from './provider';

const brandsSchema = z.object({ data: z.array(z.object({ id: z.union([z.number(), z.string()]), name: z.string() })) });

/** Deployteq: an API client (id + secret) exchanged for a bearer token, then the brands it may read. */
export const deployteq: ProviderAdapter<{ clientId: string; clientSecret: string }> = {
  async listUnits(context, { clientId, clientSecret }) {
    const root = context.config.DEPLOYTEQ_API_URL;
    const failure = INTEGRATION_ERRORS.enable;
    const token = await clientCredentialsToken(context, joinUrl(root, '/oauth/token'), failure, {
      client_id: clientId,
      client_secret: clientSecret,
    });
    const answer = await callProvider(context, joinUrl(root, '/brands'), failure, {
      headers: { authorization: `Bearer ${token}` },
    });
    const parsed = brandsSchema.safeParse(answer);
    if (!parsed.success) throw new ProviderError(failure);
    return parsed.data.data.map((brand) => ({ id: String(brand.id), name: brand.name }));
  },
};
