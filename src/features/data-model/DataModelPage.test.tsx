/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { BlueprintProvider } from '@blueprintjs/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { meFixture } from '../../../test/meFixture';
import { json, stubNetwork } from '../../../test/stubNetwork';
import type { CustomFieldsBody, SchemaTablesResponse } from '../../contracts/dataModel';
import type { Field } from '../../contracts/datasets';
import { expressionMessages } from '../../engine/dataModel/expression';
import { fieldMessages } from '../../engine/dataModel/validation';
import { setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import { DataModelPage } from './DataModelPage';

const WS = 3;
const base = `/workspaces/${WS}/settings/data-model`;

const field = (id: string, type: Field['type'], format: Field['format'], category: string): Field => ({
  id,
  name: id === 'sent' ? 'Sent' : id === 'open' ? 'Opens' : id,
  category,
  format,
  type,
  features: [],
});

const tables: SchemaTablesResponse = {
  tables: [
    {
      id: 'campaigns',
      title: 'Campaigns',
      dateField: 'date',
      fields: [
        field('date', 'dimension', 'date', 'Campaign'),
        field('country', 'dimension', 'country', 'Campaign'),
        field('sent', 'metric', 'number', 'Volume'),
        field('open', 'metric', 'number', 'Volume'),
      ],
    },
    { id: 'orders', title: 'Orders', dateField: 'date', fields: [field('date', 'dimension', 'date', 'Order')] },
  ],
};

let network: ReturnType<typeof stubNetwork>;
afterEach(() => network?.restore());

async function setup({ saveStatus = 200 } = {}) {
  let saved: CustomFieldsBody = [];
  const puts: CustomFieldsBody[] = [];
  network = stubNetwork(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === `/api/workspaces/${WS}/schema/tables`) return json(tables);
    if (pathname === `/api/workspaces/${WS}/schema/custom-fields` && request.method === 'GET') return json(saved);
    if (pathname === `/api/workspaces/${WS}/schema/custom-fields` && request.method === 'PUT') {
      const body = (await request.json()) as CustomFieldsBody;
      puts.push(body);
      if (saveStatus !== 200) return json({ error: 'Expression is required' }, saveStatus);
      saved = body;
      return json(saved);
    }
    return json({ error: 'Not found' }, 404);
  });
  const store = setupStore();
  await store.dispatch(
    authApi.util.upsertQueryData('getMe', undefined, meFixture({}, { id: WS, role: 'admin', locale: 'en_GB' })),
  );
  const router = createMemoryRouter(
    [
      ...['', 'tables/:tableId', 'tables/:tableId/fields/:fieldId'].map((path) => ({
        path: `/workspaces/:workspaceId/settings/data-model/${path}`,
        element: <DataModelPage />,
      })),
      { path: '/workspaces/:workspaceId/settings/general', element: <p>General settings</p> },
    ],
    { initialEntries: [base] },
  );
  const view = render(
    <Provider store={store}>
      <BlueprintProvider>
        <RouterProvider router={router} />
      </BlueprintProvider>
    </Provider>,
  );
  return { store, router, puts, view, messages: () => store.getState().notifications.items.map((i) => i.message) };
}

async function addMetric(name: string) {
  fireEvent.click(await screen.findByRole('button', { name: 'Add field' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Metric' }));
  fireEvent.change(await screen.findByLabelText('Metric name'), { target: { value: name } });
  fireEvent.click(screen.getByRole('button', { name: 'Add' }));
  // The menu closes once the field is added.
  await waitFor(() => expect(screen.queryByLabelText('Metric name')).toBeNull());
  return screen.findByLabelText('Expression');
}

describe('DataModelPage', () => {
  it('opens the first table with its fields by category and asks to select a field', async () => {
    const { router } = await setup();
    await waitFor(() => expect(router.state.location.pathname).toBe(`${base}/tables/campaigns`));
    expect(await screen.findByText('Select a field')).toBeTruthy();
    const volume = screen.getByRole('list', { name: 'Campaigns: Volume' });
    expect(
      within(volume)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Sent', 'Opens']);
    fireEvent.click(within(volume).getByRole('button', { name: 'Sent' }));
    expect(await screen.findByText('Built-in fields come with the data set and cannot be changed.')).toBeTruthy();
    expect(router.state.location.pathname).toBe(`${base}/tables/campaigns/fields/sent`);
  });

  it('requires a name to add a field', async () => {
    await setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Add field' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Dimension' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Field name is required')).toBeTruthy();
  });

  it('checks a metric expression as it is typed, with undo and redo', async () => {
    const { router } = await setup();
    const expression = await addMetric('Open rate');
    expect(router.state.location.pathname).toBe(`${base}/tables/campaigns/fields/open_rate`);
    expect(screen.getByText(expressionMessages.required)).toBeTruthy();
    fireEvent.change(expression, { target: { value: 'open /' } });
    expect(await screen.findByText(expressionMessages.endsWithOperator)).toBeTruthy();
    fireEvent.change(expression, { target: { value: 'open / sent' } });
    await waitFor(() => expect(screen.queryByText(expressionMessages.endsWithOperator)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText(expressionMessages.endsWithOperator)).toBeTruthy();
    expect((screen.getByLabelText('Expression') as HTMLTextAreaElement).value).toBe('open /');
    fireEvent.click(screen.getByRole('button', { name: 'Redo' }));
    await waitFor(() => expect((screen.getByLabelText('Expression') as HTMLTextAreaElement).value).toBe('open / sent'));
  });

  it('edits a dimension one rule at a time, with the messages of each rule', async () => {
    await setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Add field' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Dimension' }));
    fireEvent.change(await screen.findByLabelText('Dimension name'), { target: { value: 'Region' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(fieldMessages.atLeastOneRule)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    const rule = await screen.findByRole('group', { name: 'Rule 1' });
    expect(within(rule).getByText(fieldMessages.ruleFieldRequired)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByText(fieldMessages.finishRule)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Rule 2' })).toBeNull();

    fireEvent.change(within(rule).getByLabelText('Field'), { target: { value: 'country' } });
    expect(await within(rule).findByText(fieldMessages.countryRequired)).toBeTruthy();
    fireEvent.change(within(rule).getByLabelText('Value'), { target: { value: 'XX' } });
    expect(await within(rule).findByText(fieldMessages.countryInvalid)).toBeTruthy();
    fireEvent.change(within(rule).getByLabelText('Value'), { target: { value: 'NL' } });
    fireEvent.change(within(rule).getByLabelText('Result'), { target: { value: 'Benelux' } });
    await waitFor(() => expect(within(rule).queryByText(fieldMessages.countryInvalid)).toBeNull());
    // Country rules compare by equality only.
    expect(
      within(within(rule).getByLabelText('Condition'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Equals']);
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByRole('group', { name: 'Rule 2' })).toBeTruthy();
    expect(screen.queryByText('Resolve errors to save changes')).toBeTruthy();
  });

  it('renaming a field moves the page to its new id', async () => {
    const { router } = await setup();
    await addMetric('Open rate');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Open share' } });
    await waitFor(() => expect(router.state.location.pathname).toBe(`${base}/tables/campaigns/fields/open_share`));
    expect(screen.getByText('Id: open_share')).toBeTruthy();
  });

  it('refuses to save while a field has errors, then saves the whole list', async () => {
    const { puts, messages } = await setup();
    const expression = await addMetric('Open rate');
    expect(screen.getByText('Resolve errors to save changes')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(messages()).toContain('Resolve errors to save changes'));
    expect(puts).toHaveLength(0);

    fireEvent.change(expression, { target: { value: 'open / sent' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual([
      {
        table: 'campaigns',
        action: 'insert_after',
        anchor: 'open',
        fields: [expect.objectContaining({ id: 'open_rate', name: 'Open rate', expr: 'open / sent', type: 'metric' })],
      },
    ]);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true),
    );
  });

  it('puts the changes back as unsaved when the server refuses the save', async () => {
    const { messages } = await setup({ saveStatus: 400 });
    const expression = await addMetric('Open rate');
    fireEvent.change(expression, { target: { value: 'open / sent' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(messages()).toContain('Failed to update custom fields'));
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByLabelText('Expression') as HTMLTextAreaElement).value).toBe('open / sent');
  });

  it('asks before switching tables with unsaved changes', async () => {
    const { router } = await setup();
    await addMetric('Open rate');
    fireEvent.click(screen.getByRole('button', { name: 'Orders' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved Changes' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep Editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe(`${base}/tables/campaigns/fields/open_rate`);

    fireEvent.click(screen.getByRole('button', { name: 'Orders' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue without Saving' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${base}/tables/orders`));
    const order = await screen.findByRole('list', { name: 'Orders: Order' });
    expect(within(order).getByRole('button', { name: 'date' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open rate' })).toBeNull();
  });

  it('drags custom fields into place, never across a field they depend on', async () => {
    await setup();
    await addMetric('Open rate');
    fireEvent.change(screen.getByLabelText('Expression'), { target: { value: 'open / sent' } });
    await addMetric('Reach');
    fireEvent.change(screen.getByLabelText('Expression'), { target: { value: 'sent' } });
    const list = (category: string) => screen.getByRole('list', { name: `Campaigns: ${category}` });
    const order = () =>
      within(list('Custom'))
        .getAllByRole('button')
        .map((button) => button.textContent);
    await waitFor(() => expect(order()).toEqual(['Open rate', 'Reach']));
    const item = (category: string, name: string) =>
      within(list(category)).getByRole('button', { name }).closest('li')!;

    // Open rate uses Opens: dropped above it, it stays where it was.
    fireEvent.dragStart(item('Custom', 'Open rate'));
    fireEvent.drop(item('Volume', 'Opens'));
    expect(order()).toEqual(['Open rate', 'Reach']);
    // Reach uses only Sent: it may go above Open rate.
    fireEvent.dragStart(item('Custom', 'Reach'));
    fireEvent.drop(item('Custom', 'Open rate'));
    await waitFor(() => expect(order()).toEqual(['Reach', 'Open rate']));
    // Built-in fields cannot be dragged.
    expect(item('Volume', 'Sent').getAttribute('draggable')).toBe('false');
  });

  it('asks before leaving the page with unsaved changes', async () => {
    const { router } = await setup();
    await addMetric('Open rate');
    void router.navigate(`/workspaces/${WS}/settings/general`);
    expect(await screen.findByRole('dialog', { name: 'Unsaved Changes' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue without Saving' }));
    expect(await screen.findByText('General settings')).toBeTruthy();
  });
});
