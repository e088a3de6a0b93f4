import { Callout, NonIdealState } from '@blueprintjs/core';
import { useCurrentWorkspace } from '../shell/useCurrentWorkspace';

/** settings/integrations: the integrations pages are their own issue; members see the spec's warning. */
export function IntegrationsPlaceholderPage() {
  const workspace = useCurrentWorkspace();
  if (workspace.role !== 'admin') {
    return (
      <Callout intent="warning">
        Insufficient privileges - Please ask an administrator to make changes to the integrations of this workspace.
      </Callout>
    );
  }
  return <NonIdealState className="or-page" icon="data-connection" title="Integrations" />;
}
