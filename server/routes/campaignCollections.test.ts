import { randomUUID } from 'node:crypto';
import {
  BASELINE_VALUE_NOT_A_NUMBER,
  MAX_BASELINE_TARGETS,
  campaignCollectionListSchema,
  campaignCollectionResponseSchema,
  unknownBaselineMetric,
} from '../../src/contracts/campaignCollections';
import { createWorkspace, signIn } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

describe('/api/workspaces/:id/campaign-collections', () => {
  const t = withTestApp();

  const target = (id: string, metric = 'delivery_rate', value = '0.95') => ({
    id,
    metric,
    value,
    format: 'percent',
    category: 'Delivery',
  });
  const template = (name = 'Newsletters', targets = [target('t1')]) => ({
    name,
    rules: [],
    baselineSet: { id: 'set-1', targets },
  });
  const url = (workspaceId: number, id?: string) =>
    `/api/workspaces/${workspaceId}/campaign-collections${id ? `/${id}` : ''}`;

  async function member() {
    const user = await signIn(t);
    const workspace = await createWorkspace(t, { adminUserId: user.userId });
    const call = (method: 'GET' | 'PUT' | 'DELETE', path: string, payload?: object) =>
      t.app.inject({ method, url: path, headers: user.headers, payload });
    return { user, workspace, call };
  }

  it('creates, lists, replaces and deletes a template; a repeated PUT changes nothing more', async () => {
    const { workspace, call } = await member();
    const id = randomUUID();
    const created = await call('PUT', url(workspace.id, id), template());
    expect(created.statusCode).toBe(200);
    const body = campaignCollectionResponseSchema.parse(created.json()).data;
    expect(body).toMatchObject({
      id,
      name: 'Newsletters',
      baselineSet: { id: 'set-1', targets: [target('t1')] },
    });

    await call('PUT', url(workspace.id, id), template('Newsletters', [target('t1', 'delivery_rate', '0.9')]));
    await call('PUT', url(workspace.id, id), template('Newsletters', [target('t1', 'delivery_rate', '0.9')]));
    const listed = campaignCollectionListSchema.parse((await call('GET', url(workspace.id))).json());
    expect(listed.campaignCollections).toHaveLength(1);
    expect(listed.campaignCollections[0].baselineSet.targets[0].value).toBe('0.9');
    expect(listed.campaignCollections[0].createdAt).toBe(body.createdAt);

    expect((await call('DELETE', url(workspace.id, id))).json()).toEqual({ ok: true });
    expect((await call('GET', url(workspace.id))).json()).toEqual({ campaignCollections: [] });
    expect((await call('DELETE', url(workspace.id, id))).statusCode).toBe(404);
  });

  it("another workspace's collection is not found, and is left as it was", async () => {
    const owner = await member();
    const other = await member();
    // Ids are the client's (UUIDs) and unique across workspaces.
    const id = randomUUID();
    await owner.call('PUT', url(owner.workspace.id, id), template('Mine'));
    expect((await other.call('PUT', url(other.workspace.id, id), template('Theirs'))).statusCode).toBe(404);
    expect((await other.call('DELETE', url(other.workspace.id, id))).statusCode).toBe(404);
    expect((await other.call('GET', url(owner.workspace.id))).statusCode).toBe(404);
    const list = campaignCollectionListSchema.parse((await owner.call('GET', url(owner.workspace.id))).json());
    expect(list.campaignCollections.map((c) => c.name)).toEqual(['Mine']);
  });

  it.each<[string, object, string]>([
    ['an unknown metric', template('x', [target('t1', 'no_such_metric')]), unknownBaselineMetric('no_such_metric')],
    ['a metric without the baseline feature', template('x', [target('t1', 'sent')]), unknownBaselineMetric('sent')],
    [
      'a value that is not a number',
      template('x', [target('t1', 'delivery_rate', '95%')]),
      BASELINE_VALUE_NOT_A_NUMBER,
    ],
    [
      'more than 200 targets',
      template(
        'x',
        Array.from({ length: MAX_BASELINE_TARGETS + 1 }, (_, i) => target(`t${i}`)),
      ),
      'baselineSet',
    ],
    ['an empty name', template(''), 'Please provide a name'],
    ['an unknown field', { ...template(), owner: 1 }, 'owner'],
  ])('refuses %s with 400 and stores nothing', async (_label, payload, message) => {
    const { workspace, call } = await member();
    const res = await call('PUT', url(workspace.id, 'c1'), payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
    expect((await call('GET', url(workspace.id))).json()).toEqual({ campaignCollections: [] });
  });

  it('refuses 10^4 targets before reading them (the body is too large) and stores nothing', async () => {
    const { workspace, call } = await member();
    const many = template(
      'x',
      Array.from({ length: 10_000 }, (_, i) => target(`t${i}`)),
    );
    const res = await call('PUT', url(workspace.id, 'c1'), many);
    expect([400, 413]).toContain(res.statusCode);
    expect((await call('GET', url(workspace.id))).json()).toEqual({ campaignCollections: [] });
  });

  it('refuses an id with characters outside letters, digits, - and _', async () => {
    const { workspace, call } = await member();
    expect((await call('PUT', url(workspace.id, 'a%20b'), template())).statusCode).toBe(400);
  });
});
