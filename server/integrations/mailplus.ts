import { z } from 'zod';
import { INTEGRATION_ERRORS } from '../../src/contracts/integrations';
import { oauth1Authorization } from './oauth1';
import { callProvider, joinUrl, ProviderError, type ProviderAdapter } from './provider';

/** The REST API version the adapter was written against (Mail+ puts it in the path). */
export const MAILPLUS_SERVICE = '/integrationservice-1.1.0';

const campaignsSchema = z.array(z.object({ encryptedId: z.string().min(1), name: z.string() }));

/**
 * Mail+ (Spotler Mail+): a consumer key and secret that sign each request with OAuth 1.0a (HMAC-SHA1, no token).
 * `GET /integrationservice-1.1.0/campaign/list` proves them and lists the account's campaigns, the connected units.
 */
export const mailplus: ProviderAdapter<{ consumerKey: string; consumerSecret: string }> = {
  async listUnits(context, { consumerKey, consumerSecret }) {
    const url = joinUrl(context.config.MAILPLUS_API_URL, `${MAILPLUS_SERVICE}/campaign/list`);
    const answer = await callProvider(context, url, INTEGRATION_ERRORS.mailplus, {
      headers: { authorization: oauth1Authorization({ method: 'GET', url, consumerKey, consumerSecret }) },
    });
    const parsed = campaignsSchema.safeParse(answer);
    if (!parsed.success) throw new ProviderError(INTEGRATION_ERRORS.mailplus);
    return parsed.data.map((campaign) => ({ id: campaign.encryptedId, name: campaign.name }));
  },
};
