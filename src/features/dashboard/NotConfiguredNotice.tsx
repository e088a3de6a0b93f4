import { Callout } from '@blueprintjs/core';
import { DEFAULT_EXPLORER_DATASET } from '../../contracts/reports';
import { useDistinctValuesQuery } from '../../store/engineApi';
import { useGetIntegrationsQuery } from '../integrations/integrationsApi';
import { type DataScope } from '../widgets/types';
import { useWidgetData } from '../widgets/useWidgetData';

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
  // Only then is the dataset worth a look: any one row is data. Its date field is read, which every dashboard's
  // projection of the dataset holds, so the notice never makes a view-mode dashboard load the whole file.
  const { version, schema } = useWidgetData(scope, noIntegration ? dataset : null);
  const { data: rows } = useDistinctValuesQuery(
    {
      workspaceId: scope.workspaceId,
      version,
      query: { kind: 'distinctValues', dataset, dimension: schema?.dateField ?? '', limit: 1 },
    },
    { skip: !noIntegration || !version || !schema },
  );
  if (!noIntegration || !rows || (rows.data.value ?? []).length > 0) return null;
  return (
    <Callout intent="warning" icon="cog" className="or-dashboard-not-configured">
      {NOT_CONFIGURED}
    </Callout>
  );
}
