import { z } from 'zod';
import { INTEGRATION_ERRORS } from '../../src/contracts/integrations';
import { callProvider, joinUrl, ProviderError, type ProviderAdapter } from './provider';

const listsSchema = z.object({ lists: z.array(z.object({ id: z.number(), name: z.string() })) });

/**
 * Iterable: a server-side API key of one project, in the US or EU data centre. `GET /api/lists` (header Api-Key)
 * proves the key; the project has no name in the API, so the unit is the project of that region.
 */
export const iterable: ProviderAdapter<{ region: 'US' | 'EU'; apiKey: string }> = {
  async listUnits(context, { region, apiKey }) {
    const root = region === 'EU' ? context.config.ITERABLE_EU_API_URL : context.config.ITERABLE_API_URL;
    const answer = await callProvider(context, joinUrl(root, '/api/lists'), INTEGRATION_ERRORS.iterable, {
      headers: { 'Api-Key': apiKey },
    });
    if (!listsSchema.safeParse(answer).success) throw new ProviderError(INTEGRATION_ERRORS.iterable);
    return [{ id: region, name: `Iterable project (${region})` }];
  },
};
