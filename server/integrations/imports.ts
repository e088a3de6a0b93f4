import { importCampaignRows } from '../datasets/importCampaigns';
import { fetchKlaviyoCampaigns } from './klaviyo';
import type { ProviderContext } from './provider';

/** Klaviyo's sent email campaigns and their values into the workspace's campaign datasets. */
export async function importKlaviyo(
  context: ProviderContext,
  dataDir: string,
  workspaceId: number,
  apiKey: string,
): Promise<void> {
  const campaigns = await fetchKlaviyoCampaigns(context, apiKey);
  await importCampaignRows(
    dataDir,
    workspaceId,
    'Klaviyo',
    campaigns.map((campaign) => ({
      campaign_id: `klaviyo-${campaign.id}`,
      campaign_name: campaign.name,
      integration_name: 'Klaviyo',
      send_date: campaign.sendDate,
      sent: campaign.recipients,
      sent_unique: campaign.recipients,
      delivered: campaign.delivered,
      open: campaign.opensUnique,
      opens: campaign.opens,
      clicks_unique: campaign.clicksUnique,
      clicks: campaign.clicks,
      transactions: campaign.conversions,
      revenue: campaign.conversionValue,
    })),
  );
}
