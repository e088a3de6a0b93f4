/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { setupStore } from '../../store/store';
import { DATASET_FETCH_ERROR } from '../datasets/datasetsSlice';
import { reportsApi } from '../reports/reportsApi';
import { PublicReportPage } from './PublicReportPage';

const REPORT = 42;

const publicReport = (type: 'dashboard' | 'explorer_view', config: unknown) => ({
  id: REPORT,
  type,
  title: 'Campaign results Q4',
  config,
  version: 3,
  modifiedAt: '2026-11-01T00:00:00.000Z',
  access_level: 'read',
  share_level: 'public',
});

const workspace = (status: string) => ({
  id: 3,
  name: 'acme',
  displayName: 'Acme Retail',
  status,
  locale: 'en_GB',
});

/** The public calls of one report; `state.shared` false answers the generic not-found, as a revoked link. */
function publicServer(report: unknown, status = 'active') {
  const state = { shared: true };
  const network = stubNetwork((request) => {
    const { pathname } = new URL(request.url);
    if (!state.shared) return json({ error: 'Not found' }, 404);
    if (pathname === `/api/reports/${REPORT}/config`) return json({ data: report });
    if (pathname === `/api/reports/${REPORT}/workspace`) return json({ data: workspace(status) });
    if (pathname === `/api/reports/${REPORT}/workspace/flags`) return json({ data: [] });
    return json({ error: 'Not found' }, 404);
  });
  return { network, state };
}

function renderPage(path: string) {
  const store = setupStore();
  renderWithProviders(
    <Routes>
      <Route path="/reports/:reportId" element={<PublicReportPage />} />
    </Routes>,
    { store, route: path },
  );
  return store;
}

describe('the public report page (spec 2 §2 Routes, §8)', () => {
  let restore: () => void = () => undefined;
  afterEach(() => restore());

  it('shows the workspace and the report read-only, and fails once the link is turned off', async () => {
    const server = publicServer(publicReport('dashboard', { widgets: [] }));
    restore = server.network.restore;
    const store = renderPage(`/reports/${REPORT}`);
    expect(await screen.findByRole('heading', { name: 'Campaign results Q4' })).toBeTruthy();
    expect(screen.getByText('Acme Retail')).toBeTruthy();

    server.state.shared = false;
    // What the 10 s poll does: fetch the config again.
    await store.dispatch(reportsApi.endpoints.getPublicReport.initiate(REPORT, { forceRefetch: true }));
    expect(await screen.findByText('View not found')).toBeTruthy();
    expect(screen.queryByText('Campaign results Q4')).toBeNull();
    expect(screen.queryByText('Acme Retail')).toBeNull();
  });

  it('shows an explorer view as a grid over the dataset of the public link', async () => {
    const server = publicServer(
      publicReport('explorer_view', { dataset: 'campaign_metrics_by_send_date', columns: [{ colId: 'country' }] }),
    );
    restore = server.network.restore;
    renderPage(`/reports/${REPORT}`);
    // The dataset comes through the report's public link (this stub has none to give).
    expect(await screen.findByText(DATASET_FETCH_ERROR)).toBeTruthy();
    expect(server.network.calls.map((call) => new URL(call.url).pathname)).toContain(
      `/api/reports/${REPORT}/datasets/campaign_metrics_by_send_date`,
    );
  });

  it('says No or invalid url for an id that is not one, without asking the server', async () => {
    const server = publicServer(publicReport('dashboard', { widgets: [] }));
    restore = server.network.restore;
    renderPage('/reports/latest');
    expect(screen.getByText('No or invalid url')).toBeTruthy();
    await waitFor(() => expect(server.network.calls).toHaveLength(0));
  });

  it('shows the not-found page for a report that is not shared', async () => {
    const server = publicServer(publicReport('dashboard', { widgets: [] }));
    server.state.shared = false;
    restore = server.network.restore;
    renderPage(`/reports/${REPORT}`);
    expect(await screen.findByText('View not found')).toBeTruthy();
  });

  it.each([
    ['suspended', 'Workspace suspended'],
    ['cancelled', 'Workspace cancelled'],
  ])('shows the %s workspace notice', async (status, title) => {
    const server = publicServer(publicReport('dashboard', { widgets: [] }), status);
    restore = server.network.restore;
    renderPage(`/reports/${REPORT}`);
    expect(await screen.findByText(title)).toBeTruthy();
    expect(screen.queryByText('Campaign results Q4')).toBeNull();
  });
});
