/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { Icons } from '@blueprintjs/icons';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { meFixture } from '../../../test/meFixture';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type AlertResult, type AlertRule } from '../../contracts/alerting';
import { setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import { downloadSucceeded } from '../datasets/datasetsSlice';
import { selectNotifications } from '../notifications/notificationsSlice';
import { sendSchema } from '../widget-config/testSchema';
import { AlertingPage } from './AlertingPage';

const WS = 3;
const ID_A = '0b7f6c2e-7f0a-4a3e-9d55-1f2a3b4c5d6e';
const ID_B = '1c8a7d3f-8a1b-4b4f-8e66-2a3b4c5d6e7f';

const rule = (id: string, title: string, enabled = true): AlertRule => ({
  id,
  workspaceId: WS,
  title,
  dataset: 'campaign_metrics_by_send_date',
  dateField: 'send_date',
  filters: [],
  conditions: [{ member: 'sent', operator: 'gt', values: ['100'] }],
  dimension: null,
  mutedDays: [],
  duration: 1,
  recipients: ['mia@example.com'],
  webhookUrl: null,
  message: '',
  enabled,
  createdAt: '2026-11-01T00:00:00.000Z',
  modifiedAt: '2026-11-02T00:00:00.000Z',
});

const day = (date: string, result: boolean | null): AlertResult => ({
  rangeStart: date,
  rangeEnd: date,
  result,
  details: { dimension: null, metrics: ['sent'], results: [], total: 0 },
});
const history = { results: [day('2026-11-20', false), day('2026-11-21', true), day('2026-11-22', null)] };

function Location() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname + location.search}</output>;
}

let network: ReturnType<typeof stubNetwork>;
let saved: { path: string; body: Record<string, unknown> }[];
let secretMade = false;

interface Setup {
  rules?: AlertRule[];
  route?: string;
  failHistoryOf?: string;
  failSave?: boolean;
}

async function setup({ rules = [], route = `/workspaces/${WS}/alerting`, failHistoryOf, failSave }: Setup = {}) {
  saved = [];
  secretMade = false;
  network = stubNetwork(async (request) => {
    const { pathname } = new URL(request.url);
    const base = `/api/workspaces/${WS}/alerting`;
    if (pathname === `${base}/rules`) return json({ data: rules });
    if (pathname === `${base}/violations`) {
      return json({
        data: [{ id: 1, ruleId: ID_B, status: 'open', openedOn: '2026-11-21', closedOn: null, groups: [] }],
      });
    }
    if (pathname === `${base}/webhook-secret`) {
      if (request.method === 'POST') {
        secretMade = true;
        return json({ data: { secret: 'whsec_shown_once', createdAt: '2026-11-23T10:00:00.000Z' } }, 201);
      }
      const createdAt = secretMade ? '2026-11-23T10:00:00.000Z' : null;
      return json({ data: { configured: secretMade, createdAt } });
    }
    if (pathname.endsWith('/deliveries')) {
      return json({
        data: [
          {
            id: 7,
            ruleId: ID_A,
            day: '2026-11-22',
            url: 'https://hooks.example.com/in',
            status: 'failed',
            attempts: 4,
            responseStatus: 500,
            error: 'The receiver answered 500',
            createdAt: '2026-11-23T06:00:00.000Z',
            modifiedAt: '2026-11-23T06:02:00.000Z',
          },
        ],
      });
    }
    if (pathname.endsWith('/results')) {
      if (failHistoryOf && pathname.includes(failHistoryOf)) return json({ error: 'Not found' }, 404);
      return json({ data: { ...history, conditions: [], dimension: null } });
    }
    if (request.method === 'PUT' && pathname === `${base}/rules/preview`) {
      return json({ data: { ...history, conditions: [], dimension: null } });
    }
    if (request.method === 'PUT' && pathname.startsWith(`${base}/rules/`)) {
      if (failSave) return json({ error: 'Something broke' }, 400);
      saved.push({ path: pathname, body: (await request.json()) as Record<string, unknown> });
      return json({ data: rule(pathname.split('/').pop()!, 'Saved') });
    }
    if (request.method === 'DELETE') {
      saved.push({ path: `DELETE ${pathname}`, body: {} });
      return new Response(null, { status: 204 });
    }
    return json({ error: 'Not found' }, 404);
  });
  const store = setupStore();
  await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, meFixture()));
  // The rule's dataset is in the engine already: the drawer's pickers read its schema.
  store.dispatch(
    downloadSucceeded({
      key: `${WS}/${sendSchema.id}`,
      version: `${WS}:1`,
      schema: sendSchema,
      fetchedAt: Date.now(),
    }),
  );
  const page = (
    <>
      <AlertingPage />
      <Location />
    </>
  );
  renderWithProviders(
    <Routes>
      <Route path="/workspaces/:workspaceId/alerting" element={page} />
      <Route path="/workspaces/:workspaceId/alerting/:alertId" element={page} />
    </Routes>,
    { store, route },
  );
  return store;
}

const location = () => screen.getByLabelText('Location').textContent;

beforeAll(() => {
  Icons.loadAll();
  // A loaded CI machine may take more than the default second to render the drawer: wait for state, not time.
  configure({ asyncUtilTimeout: 15_000 });
});
afterEach(() => network.restore());

describe('the alerting list (spec 3 §2)', () => {
  test('rows show the title, a sentence, the 30-day history and their colour', async () => {
    await setup({ rules: [rule(ID_A, 'Sends dropped'), rule(ID_B, 'Opens spiked'), rule('c', 'Paused', false)] });
    const row = (title: string) => screen.getByText(title).closest('tr')!;
    await screen.findByText('Sends dropped');
    expect(
      within(row('Sends dropped')).getByText(
        'Triggers when Sent greater than 100 over the day in Campaigns by send date.',
      ),
    ).toBeTruthy();
    const bar = await within(row('Sends dropped')).findByRole('list', { name: 'History of Sends dropped' });
    expect(within(bar).getByLabelText('2026-11-21: Triggered').className).toContain('or-alert-day-triggered');
    expect(within(bar).getByLabelText('2026-11-20: Not triggered').className).toContain('or-alert-day-not-triggered');
    expect(within(bar).getByLabelText('2026-11-22: Unknown').className).toContain('or-alert-day-unknown');
    expect(row('Sends dropped').getAttribute('data-state')).toBe('ok');
    await waitFor(() => expect(row('Opens spiked').getAttribute('data-state')).toBe('open'));
    expect(row('Paused').getAttribute('data-state')).toBe('disabled');
  });

  test('a history that fails to load says so in its row', async () => {
    await setup({ rules: [rule(ID_A, 'Sends dropped'), rule(ID_B, 'Opens spiked')], failHistoryOf: ID_A });
    const row = (await screen.findByText('Sends dropped')).closest('tr')!;
    expect(await within(row).findByText('Failed to fetch alert history.')).toBeTruthy();
    const other = screen.getByText('Opens spiked').closest('tr')!;
    expect(await within(other).findByRole('list', { name: 'History of Opens spiked' })).toBeTruthy();
  });

  test('the search keeps the rules whose title matches', async () => {
    await setup({ rules: [rule(ID_A, 'Sends dropped'), rule(ID_B, 'Opens spiked')] });
    await screen.findByText('Sends dropped');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search alerts' }), { target: { value: 'OPENS' } });
    await waitFor(() => expect(screen.queryByText('Sends dropped')).toBeNull());
    expect(screen.getByText('Opens spiked')).toBeTruthy();
  });

  test('Remove asks first, then deletes the rule', async () => {
    await setup({ rules: [rule(ID_A, 'Sends dropped')] });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Sends dropped' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Remove' }));
    expect(await screen.findByText('Are you sure you want to remove this alert rule?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(saved).toEqual([{ path: `DELETE /api/workspaces/${WS}/alerting/rules/${ID_A}`, body: {} }]),
    );
  });
});

describe('the edit-alert drawer (spec 3 §2, §5)', () => {
  test('Add alert opens a new rule with the defaults; Save without a condition says so and sends nothing', async () => {
    await setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Add alert' }));
    expect(location()).toBe(`/workspaces/${WS}/alerting?drawer.type=edit-alert`);
    const title = await screen.findByLabelText<HTMLInputElement>('Title');
    expect(title.value).toBe('New alert');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Add at least one condition')).toBeTruthy();
    fireEvent.change(title, { target: { value: '' } });
    expect(await screen.findByText('Please provide a title')).toBeTruthy();
    expect(saved).toEqual([]);
  });

  test('/alerting/{id} edits that rule; Save sends it, and the route returns to the list', async () => {
    await setup({ rules: [rule(ID_A, 'Sends dropped')], route: `/workspaces/${WS}/alerting/${ID_A}` });
    const title = await screen.findByLabelText<HTMLInputElement>('Title');
    expect(title.value).toBe('Sends dropped');
    fireEvent.change(title, { target: { value: 'Sends fell' } });
    expect(await screen.findByRole('list', { name: 'Preview' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe(`/workspaces/${WS}/alerting`));
    expect(saved).toEqual([
      {
        path: `/api/workspaces/${WS}/alerting/rules/${ID_A}`,
        body: expect.objectContaining({ title: 'Sends fell', duration: 1, webhookUrl: null }),
      },
    ]);
  });

  test('the webhook section shows the delivery log and the new signing secret once, with a copy button', async () => {
    const writeText = jest.fn(async () => {});
    Object.assign(navigator, { clipboard: { writeText } });
    const store = await setup({ rules: [rule(ID_A, 'Sends dropped')], route: `/workspaces/${WS}/alerting/${ID_A}` });
    const log = await screen.findByRole('table', { name: 'Webhook deliveries' });
    expect(within(log).getByText('The receiver answered 500')).toBeTruthy();
    expect(within(log).getByText('failed')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Create secret' }));
    const secret = await screen.findByLabelText<HTMLInputElement>('Webhook signing secret');
    expect(secret.value).toBe('whsec_shown_once');
    expect(screen.getByText('Copy this secret now: it will not be shown again.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('whsec_shown_once'));
    await waitFor(() =>
      expect(selectNotifications(store.getState()).map((n) => n.message)).toContain('Copied to clipboard'),
    );
    // The status now says a secret exists, and offers to rotate it.
    expect(await screen.findByRole('button', { name: 'Rotate secret' })).toBeTruthy();
  });

  test('a failed save says "Failed to update alert" and keeps the form', async () => {
    const store = await setup({
      rules: [rule(ID_A, 'Sends dropped')],
      route: `/workspaces/${WS}/alerting/${ID_A}`,
      failSave: true,
    });
    const title = await screen.findByLabelText<HTMLInputElement>('Title');
    fireEvent.change(title, { target: { value: 'Sends fell' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(selectNotifications(store.getState()).map((item) => item.message)).toEqual(['Failed to update alert']),
    );
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Sends fell');
    expect(location()).toBe(`/workspaces/${WS}/alerting/${ID_A}`);
  });

  test('Duplicate edits a copy titled " (copy)" that saves under a new id; Reset returns to it', async () => {
    await setup({ rules: [rule(ID_A, 'Sends dropped')] });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Sends dropped' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Duplicate' }));
    expect(location()).toBe(
      `/workspaces/${WS}/alerting?drawer.type=edit-alert&drawer.alertId=${ID_A}&drawer.mode=copy`,
    );
    const title = await screen.findByLabelText<HTMLInputElement>('Title');
    expect(title.value).toBe('Sends dropped (copy)');
    fireEvent.change(title, { target: { value: 'Something else' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Sends dropped (copy)');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].path).not.toContain(ID_A);
    expect(saved[0].body).toMatchObject({ title: 'Sends dropped (copy)' });
  });
});
