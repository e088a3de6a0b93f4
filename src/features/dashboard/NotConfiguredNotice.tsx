import { Callout } from '@blueprintjs/core';
import { DEFAULT_EXPLORER_DATASET } from '../../contracts/reports';
import { useGetDatasetSchemaQuery } from '../datasets/datasetsApi';
import { useGetIntegrationsQuery } from '../integrations/integrationsApi';
import { type DataScope } from '../widgets/types';

/** Spec 2 §2 Dashboard canvas, word for word. */
export const NOT_CONFIGURED = 'Your workspace has not been fully configured yet.';

interface NotConfiguredNoticeProps {
  scope: DataScope;
  /** The campaign dataset every new dashboard reads (another one in tests). */
  dataset?: string;
}

/**
 * Tells a workspace's members that it has neither an integration nor data yet, so an empty canvas reads as "not
 * set up" rather than "broken". The public page never asks (its viewers cannot configure anything).
 */
export function NotConfiguredNotice({ scope, dataset = DEFAULT_EXPLORER_DATASET }: NotConfiguredNoticeProps) {
  const { data: integrations } = useGetIntegrationsQuery(scope.workspaceId, {
    skip: scope.publicReportId !== undefined,
  });
  const noIntegration = integrations?.data.length === 0;
  // Only then is the dataset worth a look. Its schema answer counts the rows, so no engine or download is needed;
  // a dashboard over this dataset asks for that answer anyway, and shares it.
  const { data: schema } = useGetDatasetSchemaQuery(
    { workspaceId: scope.workspaceId, datasetId: dataset },
    { skip: !noIntegration },
  );
  if (!noIntegration || schema?.rowCount !== 0) return null;
  return (
    <Callout intent="warning" icon="cog" className="or-dashboard-not-configured">
      {NOT_CONFIGURED}
    </Callout>
  );
}
