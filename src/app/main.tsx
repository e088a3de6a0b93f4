// First: no schema may be made before zod is told not to use eval (see noEval.ts).
import './noEval';
// Second: DuckDB's module starts compiling before the rest of the page's code runs (see compileAhead.ts).
import './compileAhead';
// Only what the first screens draw; the lazily loaded routes bring the rest (scripts/blueprintCss.ts).
import '@blueprintjs/core/lib/css/blueprint.css?part=first';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { followAccount } from '../features/auth/accountListeners';
import { browserDatasetStore } from '../features/datasets/datasetCache';
import { keepDatasetsForNextVisit, loadKeptDatasets } from '../features/datasets/keptDatasets';
import { loadPrefs, persistPrefs } from '../features/prefs/prefsPersistence';
import { loadReportsListState, persistReportsList } from '../features/reports/state/reportsListPersistence';
import { loadTabsState, startTabsListeners } from '../features/reports/state/tabsPersistence';
import { startUserDataListeners } from '../features/session/userDataPersistence';
import { loadShellState, loadWorkspacesState, persistWorkspaces } from '../features/workspaces/localPersistence';
import { setupStore } from '../store/store';
import { browserKeptResults } from '../workers/keptResults';
import { App } from './App';
import { afterKeptAnswers } from './compileAhead';
import { fetchIconPaths, setupIcons } from './icons';
import { startInitialRequests } from './initialRequests';
import { prepareEngineFor, startEngineFor } from './router';

const store = setupStore({
  prefs: loadPrefs(window.localStorage),
  workspaces: loadWorkspacesState(window.localStorage),
  shell: loadShellState(window.localStorage),
  tabs: loadTabsState(window.localStorage),
  reportsList: loadReportsListState(window.localStorage),
  // The last visit's datasets, checked with the server at first use: its kept answers are drawn meanwhile.
  datasets: loadKeptDatasets(window.localStorage),
});
// First, so a different user's stored work is gone before anything else reads or writes storage for them.
startUserDataListeners(window.localStorage, [browserDatasetStore(), browserKeptResults()]);
persistPrefs(window.localStorage);
persistWorkspaces(window.localStorage);
followAccount();
startTabsListeners(window.localStorage);
persistReportsList(window.localStorage);
keepDatasetsForNextVisit(window.localStorage);
// Before the first render, and after the user-data listeners, which must see the account's answer.
const { pathname } = window.location;
// A reload of a page whose answers were kept shows them without DuckDB: its engine starts once they are drawn, so that
// its start does not compete with the page's own on the user's cores (bench/README.md).
startInitialRequests(
  store.dispatch,
  pathname,
  window.localStorage,
  () => startEngineFor(pathname, afterKeptAnswers),
  document.cookie,
);
if (!afterKeptAnswers) prepareEngineFor(pathname);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
// The build names its icon files with this hash (scripts/iconPaths.ts, webpack.config.ts).
void setupIcons(fetchIconPaths(process.env.ICON_PATHS_HASH ?? '')).finally(() =>
  createRoot(container).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  ),
);
