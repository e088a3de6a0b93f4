import { NonIdealState, Spinner } from '@blueprintjs/core';
import { type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { z } from 'zod';
import { api } from '../../store/api';
import { isNeverRetried } from '../../store/httpRules';

const campaignDetailsSchema = z.object({ url: z.string().nullable() });

/** Spec 1 §7: campaign details are tried up to 3 times, never again after a 404. */
export const retryCampaignDetails = (error: FetchBaseQueryError, attempt: number): boolean =>
  attempt < 3 && !isNeverRetried(error.status);

export const campaignApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCampaignDetails: build.query<z.infer<typeof campaignDetailsSchema>, { workspaceId: string; campaignId: string }>(
      {
        query: ({ workspaceId, campaignId }) =>
          `/workspaces/${encodeURIComponent(workspaceId)}/datasets/campaigns/${encodeURIComponent(campaignId)}`,
        responseSchema: campaignDetailsSchema,
        extraOptions: {
          retryCondition: (error: unknown, _args: unknown, { attempt }: { attempt: number }) =>
            retryCampaignDetails(error as FetchBaseQueryError, attempt),
        },
      },
    ),
  }),
});

/** Only web pages are followed: a `javascript:` or other URL in campaign data must never run on our origin. */
export function webPageUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/** …/datasets/campaigns/{campaignId}/webview: sends the browser to the campaign's preview. */
export function CampaignWebviewPage() {
  const { workspaceId = '', campaignId = '' } = useParams();
  const { data, isLoading, isError } = campaignApi.useGetCampaignDetailsQuery({ workspaceId, campaignId });
  const url = webPageUrl(data?.url);

  useEffect(() => {
    if (url) window.location.replace(url);
  }, [url]);

  if (isLoading || url) return <Spinner className="or-page-spinner" />;
  if (isError || !url) return <NonIdealState className="or-page" icon="eye-off" title="Preview URL not available." />;
  return null;
}
