import { NonIdealState } from '@blueprintjs/core';

/** settings/data-model: the data-model editor is its own issue. */
export function DataModelPlaceholderPage() {
  return <NonIdealState className="or-page" icon="database" title="Data model" />;
}
