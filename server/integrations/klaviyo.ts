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

export async function klaviyoCall(
  context: ProviderContext,
  apiKey: string,
  path: string,
  json?: unknown,
): Promise<unknown> {
  return callProvider(context, joinUrl(context.config.KLAVIYO_API_URL, path), INTEGRATION_ERRORS.klaviyo, {
    method: json === undefined ? 'GET' : 'POST',
    headers: {
      ...klaviyoHeaders(apiKey),
      ...(json === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
    },
    json,
  });
}

/** Klaviyo: a private API key; `GET /api/accounts` answers the account(s) it belongs to, 401 for a bad key. */
export const klaviyo: ProviderAdapter<{ apiKey: string }> = {
  async listUnits(context, { apiKey }) {
    const parsed = accountsSchema.safeParse(await klaviyoCall(context, apiKey, '/api/accounts'));
    if (!parsed.success) throw new ProviderError(INTEGRATION_ERRORS.klaviyo);
    return parsed.data.data.map((account) => ({
      id: account.id,
      name: account.attributes.contact_information.organization_name ?? account.id,
    }));
  },
};

/** A sent email campaign with the statistics the import writes into the campaign datasets. */
export interface KlaviyoCampaign {
  id: string;
  name: string;
  sendDate: string;
  recipients: number;
  delivered: number;
  opensUnique: number;
  opens: number;
  clicksUnique: number;
  clicks: number;
  conversions: number;
  conversionValue: number;
}

const campaignsSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      attributes: z.object({ name: z.string(), send_time: z.string().nullish() }),
    }),
  ),
});
const metricsSchema = z.object({ data: z.array(z.object({ id: z.string() })) });
const statistic = z.number().nonnegative().default(0);
const reportSchema = z.object({
  data: z.object({
    attributes: z.object({
      results: z.array(
        z.object({
          groupings: z.object({ campaign_id: z.string() }),
          statistics: z.object({
            recipients: statistic,
            delivered: statistic,
            opens_unique: statistic,
            opens: statistic,
            clicks_unique: statistic,
            clicks: statistic,
            conversions: statistic,
            conversion_value: statistic,
          }),
        }),
      ),
    }),
  }),
});

/**
 * The account's sent email campaigns of the last 12 months with their values: GET /api/campaigns, the 'Placed
 * Order' metric as the conversion metric, then one POST /api/campaign-values-reports for all of them.
 */
export async function fetchKlaviyoCampaigns(context: ProviderContext, apiKey: string): Promise<KlaviyoCampaign[]> {
  const fail = () => new ProviderError(INTEGRATION_ERRORS.klaviyo);
  const campaigns = campaignsSchema.safeParse(
    await klaviyoCall(
      context,
      apiKey,
      `/api/campaigns?filter=${encodeURIComponent("equals(messages.channel,'email')")}`,
    ),
  );
  const metrics = metricsSchema.safeParse(
    await klaviyoCall(context, apiKey, `/api/metrics?filter=${encodeURIComponent('equals(name,"Placed Order")')}`),
  );
  if (!campaigns.success || !metrics.success) throw fail();
  const statistics = ['recipients', 'delivered', 'opens_unique', 'opens', 'clicks_unique', 'clicks'];
  const report = reportSchema.safeParse(
    await klaviyoCall(context, apiKey, '/api/campaign-values-reports', {
      data: {
        type: 'campaign-values-report',
        attributes: {
          statistics: [...statistics, 'conversions', 'conversion_value'],
          timeframe: { key: 'last_12_months' },
          conversion_metric_id: metrics.data.data[0]?.id,
        },
      },
    }),
  );
  if (!report.success) throw fail();
  const values = new Map(report.data.data.attributes.results.map((row) => [row.groupings.campaign_id, row.statistics]));
  return campaigns.data.data.flatMap((campaign) => {
    const stats = values.get(campaign.id);
    const sendTime = campaign.attributes.send_time;
    if (!stats || !sendTime) return [];
    return [
      {
        id: campaign.id,
        name: campaign.attributes.name,
        sendDate: sendTime.slice(0, 10),
        recipients: stats.recipients,
        delivered: stats.delivered,
        opensUnique: stats.opens_unique,
        opens: stats.opens,
        clicksUnique: stats.clicks_unique,
        clicks: stats.clicks,
        conversions: stats.conversions,
        conversionValue: stats.conversion_value,
      },
    ];
  });
}
