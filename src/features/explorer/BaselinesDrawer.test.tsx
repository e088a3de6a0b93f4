/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type CampaignCollection } from '../../contracts/campaignCollections';
import { getCatalogueDataset, toDatasetSchema } from '../../contracts/catalogue';
import { type ExplorerConfig } from '../../contracts/reports';
import { ADD_BASELINE, baselinePickerMessages } from './BaselineList';
import { baselineLabels, BaselinesButton } from './BaselinesDrawer';

const WS = 3;
const schema = toDatasetSchema(getCatalogueDataset('campaign_metrics_by_send_date')!);
const baselineMetricLabels = schema.fields
  .filter((field) => field.type === 'metric' && field.features.includes('baseline'))
  .map((field) => field.label ?? field.name);

const newsletters: CampaignCollection = {
  id: 'tpl-1',
  name: 'Newsletters',
  createdAt: '2024-01-01T00:00:00.000Z',
  lastUpdatedAt: '2024-01-01T00:00:00.000Z',
  rules: [],
  baselineSet: {
    id: 'set-1',
    targets: [{ id: 't1', metric: 'bounce_rate', value: '0.02', format: 'percent', category: 'Delivery' }],
  },
};

let templates: CampaignCollection[] = [];
const puts: { path: string; body: Record<string, unknown> }[] = [];
const deletes: string[] = [];
let network: ReturnType<typeof stubNetwork>;

beforeEach(() => {
  templates = [newsletters];
  puts.length = 0;
  deletes.length = 0;
  network = stubNetwork(async (request) => {
    const path = new URL(request.url).pathname;
    const base = `/api/workspaces/${WS}/campaign-collections`;
    if (request.method === 'GET' && path === base) return json({ campaignCollections: templates });
    const id = path.slice(base.length + 1);
    if (request.method === 'PUT') {
      const body = (await request.json()) as Omit<CampaignCollection, 'id' | 'createdAt' | 'lastUpdatedAt'>;
      puts.push({ path, body });
      const saved = { ...body, id, createdAt: newsletters.createdAt, lastUpdatedAt: newsletters.createdAt };
      templates = [...templates.filter((template) => template.id !== id), saved];
      return json({ data: saved });
    }
    if (request.method === 'DELETE') {
      deletes.push(id);
      templates = templates.filter((template) => template.id !== id);
      return json({ ok: true });
    }
    return json({ error: 'Not found' }, 404);
  });
});
afterEach(() => network.restore());

/** The drawer over a view whose config takes every edit, as the report document does. */
function renderDrawer(
  initial: ExplorerConfig,
  { canEdit = true, publicReportId }: { canEdit?: boolean; publicReportId?: number } = {},
) {
  const configs: ExplorerConfig[] = [];
  function Harness() {
    const [config, setConfig] = useState(initial);
    return (
      <BaselinesButton
        schema={schema}
        config={config}
        scope={{ workspaceId: WS, publicReportId }}
        canEdit={canEdit}
        onEdit={(edit) =>
          setConfig((current) => {
            const next = edit(current);
            configs.push(next);
            return next;
          })
        }
      />
    );
  }
  const view = renderWithProviders(<Harness />, { route: '/?drawer.type=baselines' });
  return { ...view, configs };
}

const choice = () => screen.getByLabelText<HTMLSelectElement>(baselineLabels.choice);
const choose = (value: string) => fireEvent.change(choice(), { target: { value } });
const options = () => Array.from(choice().options).map((option) => option.text);

test('save current as a template: its name defaults, its values are sent as strings, and it is then chosen', async () => {
  renderDrawer({ dataset: schema.id, kpiData: { open_rate: 0.25 } });
  // Rates are typed in percent.
  expect(await screen.findByLabelText<HTMLInputElement>('Open rate')).toHaveProperty('value', '25');
  expect(screen.getByLabelText(baselineLabels.templateName)).toHaveProperty('value', 'New Campaign Template');
  fireEvent.change(screen.getByLabelText('Open rate'), { target: { value: '31.5' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save as template' }));

  await waitFor(() => expect(puts).toHaveLength(1));
  expect(puts[0].body).toMatchObject({
    name: 'New Campaign Template',
    baselineSet: { targets: [{ metric: 'open_rate', value: '0.315', format: 'percent', category: 'Engagement' }] },
  });
  await waitFor(() => expect(choice().selectedOptions[0].text).toBe('New Campaign Template'));
  expect(screen.getByLabelText('Open rate').textContent).toBe('31.5%');
});

test("applying a template stores its set's id and values; applying current gives the view a new id", async () => {
  const { configs } = renderDrawer({ dataset: schema.id, kpiData: { open_rate: 0.25 }, baselineId: 'old' });
  await waitFor(() => expect(options()).toEqual(['Current', 'None', 'Newsletters']));
  choose('tpl-1');
  expect(screen.getByLabelText('Bounce rate').textContent).toBe('2%');
  fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
  expect(configs.at(-1)).toMatchObject({ kpiData: { bounce_rate: 0.02 }, baselineId: 'set-1' });

  // Opened again, the drawer shows the applied template.
  fireEvent.click(screen.getByRole('button', { name: baselineLabels.title }));
  await waitFor(() => expect(choice().value).toBe('tpl-1'));
  choose('current');
  fireEvent.change(screen.getByLabelText('Bounce rate'), { target: { value: '1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
  const applied = configs.at(-1)!;
  expect(applied.kpiData).toEqual({ bounce_rate: 0.01 });
  expect(applied.baselineId).toEqual(expect.any(String));
  expect(applied.baselineId).not.toBe('set-1');
  expect(applied.baselineId).not.toBe('old');
});

test("'none' clears the baselines", async () => {
  const { configs } = renderDrawer({ dataset: schema.id, kpiData: { open_rate: 0.25 }, baselineId: 'old' });
  choose('none');
  fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
  expect(configs).toEqual([{ dataset: schema.id, kpiData: {}, baselineId: null }]);
});

test("the add list offers the baseline metrics not chosen yet; 'Nothing found' and 'No labels'", async () => {
  renderDrawer({ dataset: schema.id, kpiData: { open_rate: 0.25 } });
  fireEvent.click(await screen.findByRole('button', { name: ADD_BASELINE }));
  const list = await screen.findByRole('listbox', { name: 'Baseline metrics' });
  const offered = within(list)
    .getAllByRole('option')
    .map((option) => option.querySelector('.bp6-text-overflow-ellipsis')?.textContent);
  expect(offered).toEqual(baselineMetricLabels.filter((label) => label !== 'Open rate'));
  expect(offered).not.toContain('Total sent');

  fireEvent.change(screen.getByLabelText('Find a metric'), { target: { value: 'bounce' } });
  fireEvent.click(await within(list).findByText('Bounce rate'));
  expect(await screen.findByLabelText('Bounce rate')).toHaveProperty('value', '');
  // A baseline without a value cannot be applied.
  expect(screen.getByRole('button', { name: 'Apply' })).toHaveProperty('disabled', true);

  fireEvent.click(screen.getByRole('button', { name: ADD_BASELINE }));
  fireEvent.change(await screen.findByLabelText('Find a metric'), { target: { value: 'zzz' } });
  expect(await screen.findByText(baselinePickerMessages.nothingFound)).toBeTruthy();
});

test("every baseline metric chosen: the add list says 'No labels'", async () => {
  const all = Object.fromEntries(
    schema.fields.filter((field) => field.features.includes('baseline')).map((field) => [field.id, 0.1]),
  );
  renderDrawer({ dataset: schema.id, kpiData: all });
  fireEvent.click(await screen.findByRole('button', { name: ADD_BASELINE }));
  expect(await screen.findByText(baselinePickerMessages.noLabels)).toBeTruthy();
});

test('a template is edited and saved under its ids, and deleted only after a confirmation', async () => {
  renderDrawer({ dataset: schema.id });
  await waitFor(() => expect(options()).toContain('Newsletters'));
  choose('tpl-1');
  fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
  fireEvent.change(screen.getByLabelText(baselineLabels.templateName), { target: { value: 'Promotions' } });
  fireEvent.change(screen.getByLabelText('Bounce rate'), { target: { value: '3' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(puts).toHaveLength(1));
  expect(puts[0].path).toBe(`/api/workspaces/${WS}/campaign-collections/tpl-1`);
  expect(puts[0].body).toMatchObject({
    name: 'Promotions',
    baselineSet: { id: 'set-1', targets: [{ value: '0.03' }] },
  });
  await waitFor(() => expect(choice().selectedOptions[0].text).toBe('Promotions'));
  expect(screen.getByLabelText('Bounce rate').textContent).toBe('3%');

  fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
  const alert = await screen.findByRole('alertdialog');
  fireEvent.click(within(alert).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  expect(deletes).toEqual([]);
  fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
  fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(deletes).toEqual(['tpl-1']));
  await waitFor(() => expect(options()).toEqual(['Current', 'None']));
});

test('read-only: baselines and templates are shown, nothing can be applied, saved, added or deleted', async () => {
  const view = renderDrawer({ dataset: schema.id, kpiData: { open_rate: 0.25 } }, { canEdit: false });
  expect((await screen.findByLabelText('Open rate')).textContent).toBe('25%');
  await waitFor(() => expect(options()).toEqual(['Current', 'Newsletters']));
  choose('tpl-1');
  expect(screen.getByLabelText('Bounce rate').textContent).toBe('2%');
  for (const name of ['Apply', 'Edit', 'Delete', 'Save as template', ADD_BASELINE]) {
    expect(screen.queryByRole('button', { name })).toBeNull();
  }
  expect(view.configs).toEqual([]);
  view.unmount();

  // The public page cannot read the workspace's templates: it shows the view's own baselines only.
  const calls = network.calls.length;
  renderDrawer({ dataset: schema.id, kpiData: { open_rate: 0.25 } }, { canEdit: false, publicReportId: 9 });
  expect((await screen.findByLabelText('Open rate')).textContent).toBe('25%');
  expect(options()).toEqual(['Current']);
  expect(network.calls.length).toBe(calls);
});
