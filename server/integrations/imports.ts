import type { FastifyBaseLogger } from 'fastify';
import { importCampaignRows } from '../datasets/importCampaigns';
import { fetchKlaviyoCampaigns } from './klaviyo';
import type { ProviderContext } from './provider';

/**
 * Imports run in this process, in the background, one at a time per workspace: a connect answers at once and the
 * dashboards pick the new dataset version up on their next fetch. This is the one place a job queue replaces.
 */
const queues = new Map<number, Promise<void>>();

export function enqueueImport(
  workspaceId: number,
  name: string,
  log: FastifyBaseLogger,
  run: () => Promise<void>,
): Promise<void> {
  const previous = queues.get(workspaceId) ?? Promise.resolve();
  const next = previous
    .then(run)
    .catch((error: unknown) => {
      // The message and kind only: a provider error never carries credentials, but a stack's locals might.
      log.error(
        { workspaceId, import: name, reason: error instanceof Error ? error.message : String(error) },
        'Import failed',
      );
    })
    .finally(() => {
      if (queues.get(workspaceId) === next) queues.delete(workspaceId);
    });
  queues.set(workspaceId, next);
  return next;
}

/** Resolves when the workspace's queued imports have finished (succeeded or failed). */
export function importsSettled(workspaceId: number): Promise<void> {
  return queues.get(workspaceId) ?? Promise.resolve();
}

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
