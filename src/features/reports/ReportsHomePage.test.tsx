/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { Icons } from '@blueprintjs/icons';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { meFixture } from '../../../test/meFixture';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { reportSummaryFixture } from '../../../test/reportFixture';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type Me } from '../../contracts/me';
import { type AccessLevel } from '../../contracts/reports';
import { setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import { ReportsHomePage } from './ReportsHomePage';

const WS = 3;
const ME = 7;

const me: Me = meFixture({ memberId: ME }, { id: WS });

const summary = (id: number, title: string, accessLevel: AccessLevel) =>
  reportSummaryFixture({
    id,
    workspace_id: WS,
    title,
    owner: { id: ME, name: 'Mia' },
    created_by: { id: ME, name: 'Mia' },
    modified_by: { id: 9, name: 'Ann' },
    access_level: accessLevel,
  });

function Location() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname + location.search}</output>;
}

let network: ReturnType<typeof stubNetwork>;
let created: unknown[];

async function setup({
  reports = [] as ReturnType<typeof summary>[],
  flags = [] as string[],
  flagsAnswered = Promise.resolve(),
} = {}) {
  created = [];
  network = stubNetwork(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === `/api/workspaces/${WS}/flags`) {
      await flagsAnswered;
      return json({ data: flags });
    }
    if (pathname === `/api/workspaces/${WS}/reports`) return json({ data: reports });
    if (request.method === 'POST' && pathname === `/api/workspaces/${WS}/reports/dashboard`) {
      const body = (await request.json()) as { title: string; config: unknown };
      created.push(body);
      return json({ data: { ...summary(50, body.title, 'full_access'), config: body.config } }, 201);
    }
    return json({ error: 'Not found' }, 404);
  });
  const store = setupStore();
  await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, me));
  renderWithProviders(
    <Routes>
      <Route
        path="/workspaces/:workspaceId/*"
        element={
          <>
            <ReportsHomePage />
            <Location />
          </>
        }
      />
    </Routes>,
    { store, route: `/workspaces/${WS}/reports` },
  );
  return store;
}

const location = () => screen.getByLabelText('Location').textContent;

beforeAll(() => Icons.loadAll());
afterEach(() => network.restore());

describe('reports home (spec 2 §2 Reports home)', () => {
  it('offers each row the menu items its access level allows; Duplicate to everyone', async () => {
    await setup({
      reports: [
        summary(1, 'Viewer report', 'read'),
        summary(2, 'Editor report', 'read_write'),
        summary(3, 'Owner report', 'full_access'),
      ],
    });
    const itemsOf = async (title: string) => {
      fireEvent.click(await screen.findByRole('button', { name: `Actions for ${title}` }));
      const menu = await screen.findByRole('menu');
      const items = within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent);
      fireEvent.keyDown(menu, { key: 'Escape' });
      await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
      return items;
    };
    expect(await itemsOf('Viewer report')).toEqual(['Duplicate']);
    expect(await itemsOf('Editor report')).toEqual(['Rename', 'Duplicate']);
    expect(await itemsOf('Owner report')).toEqual(['Share', 'Rename', 'Delete', 'Duplicate']);
  });

  it('Share opens the share drawer for that report', async () => {
    await setup({ reports: [summary(3, 'Owner report', 'full_access')] });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Owner report' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Share' }));
    expect(location()).toBe(
      `/workspaces/${WS}/reports?drawer.type=share&drawer.objectType=dashboard&drawer.objectId=3`,
    );
  });

  it('shows who modified a report', async () => {
    await setup({ reports: [summary(3, 'Owner report', 'full_access')] });
    expect(await screen.findByText(/Modified .* by Ann/)).toBeTruthy();
  });

  it('says so when there are no reports yet', async () => {
    await setup();
    expect(await screen.findByText('No reports yet')).toBeTruthy();
  });

  it('creates a dashboard from a template, titled with the date, and opens it', async () => {
    let answerFlags = () => {};
    const flagsAnswered = new Promise<void>((resolve) => (answerFlags = resolve));
    const store = await setup({ flags: ['grid_layout'], flagsAnswered });
    const card = await screen.findByRole('button', { name: /^Create Dashboard/ });
    // The layout depends on the flags: until they are known, a click creates nothing.
    expect(card.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(card);
    answerFlags();
    await waitFor(() => expect(card.getAttribute('aria-disabled')).toBe('false'));
    expect(created).toEqual([]);
    expect(screen.queryByRole('button', { name: /^Create Grid dashboard/ })).toBeNull();
    fireEvent.click(card);
    await waitFor(() => expect(location()).toBe(`/workspaces/${WS}/reports/dashboard/50`));
    expect(created).toEqual([
      {
        title: expect.stringMatching(/^Dashboard \(\d\d-\d\d-\d{4}\)$/) as unknown,
        config: expect.objectContaining({ widgets: [], flags: ['grid_layout'] }) as unknown,
      },
    ]);
    expect(store.getState().notifications.items.map((item) => item.message)).toEqual(['Successfully created report']);
  });

  it('offers the beta grid dashboard with the new_dashboard flag', async () => {
    await setup({ flags: ['new_dashboard'] });
    expect(await screen.findByRole('button', { name: /^Create Grid dashboard/ })).toBeTruthy();
  });
});
