import { okResponseSchema } from '../../src/contracts/common';
import type { CustomFieldGroup } from '../../src/contracts/dataModel';
import { type Report } from '../../src/contracts/reports';
import {
  END_BEFORE_START,
  TARGETS_PER_WORKSPACE_REACHED,
  targetListResponseSchema,
  targetResponseSchema,
} from '../../src/contracts/targets';
import { saveCustomFieldGroups } from '../services/dataModel';
import { addMember, apiCaller, createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { withTestApp } from '../testing/testApp';

const t = withTestApp({ LIMIT_TARGETS_PER_WORKSPACE: 3 });

const call = apiCaller(t);

let seq = 0;
const newId = () => `t-${Date.now().toString(36)}-${++seq}`;
const targetUrl = (workspaceId: number, id: string) => `/workspaces/${workspaceId}/targets/${id}`;

const body = (changes: Record<string, unknown> = {}) => ({
  title: 'Q4 revenue',
  dataset: 'campaign_metrics_by_send_date',
  metric: 'revenue',
  target: 12_500.5,
  dateStart: '2026-10-01',
  dateEnd: '2026-12-31',
  visualization: 'bar',
  filters: [{ member: 'country', operator: 'equals', values: ['NL'] }],
  ...changes,
});

async function team() {
  const owner = await signIn(t);
  const member = await signIn(t);
  const outsider = await signIn(t);
  const { id: workspaceId } = await createWorkspace(t, { adminUserId: owner.userId });
  await addMember(t, workspaceId, member.userId, 'member');
  const { id: otherWorkspaceId } = await createWorkspace(t, { adminUserId: outsider.userId });
  return { owner, member, outsider, workspaceId, otherWorkspaceId };
}

async function put(who: SignedIn, workspaceId: number, id: string, payload: unknown = body()) {
  return call(who, 'PUT', targetUrl(workspaceId, id), payload);
}

describe('targets of a workspace', () => {
  it('creates with the defaults, updates, lists in the spec order and deletes', async () => {
    const { owner, member, workspaceId } = await team();
    const id = newId();
    const created = await put(member, workspaceId, id, {
      title: 'Sends',
      metric: 'sent',
      dateStart: '2026-01-01',
      dateEnd: '2026-01-31',
    });
    expect(created.statusCode).toBe(201);
    expect(targetResponseSchema.parse(created.json()).data).toEqual({
      id,
      workspaceId,
      title: 'Sends',
      dataset: 'campaign_metrics_by_send_date',
      metric: 'sent',
      target: 0,
      dateStart: '2026-01-01',
      dateEnd: '2026-01-31',
      visualization: 'line',
      filters: [],
    });

    const updated = await put(owner, workspaceId, id, body({ title: 'Sends NL', metric: 'sent' }));
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ id, title: 'Sends NL', target: 12_500.5, visualization: 'bar' });

    const later = newId();
    const sameEnd = newId();
    expect((await put(owner, workspaceId, later, body({ title: 'Zeta', dateEnd: '2027-03-31' }))).statusCode).toBe(201);
    expect((await put(owner, workspaceId, sameEnd, body({ title: 'Alpha' }))).statusCode).toBe(201);
    const listed = await call(member, 'GET', `/workspaces/${workspaceId}/targets`);
    expect(listed.statusCode).toBe(200);
    expect(targetListResponseSchema.parse(listed.json()).data.map((target) => target.title)).toEqual([
      'Zeta',
      'Alpha',
      'Sends NL',
    ]);

    const removed = await call(member, 'DELETE', targetUrl(workspaceId, id));
    expect(okResponseSchema.parse(removed.json())).toEqual({ ok: true });
    expect((await call(member, 'DELETE', targetUrl(workspaceId, id))).statusCode).toBe(404);
    const after = await call(member, 'GET', `/workspaces/${workspaceId}/targets`);
    expect(after.json().data.map((target: { id: string }) => target.id)).toEqual([later, sameEnd]);
  });

  it("answers 404 for another workspace's target and for non-members", async () => {
    const { owner, outsider, workspaceId, otherWorkspaceId } = await team();
    const theirs = newId();
    expect((await put(outsider, otherWorkspaceId, theirs)).statusCode).toBe(201);
    // Naming their id from our workspace neither reads, overwrites nor deletes it.
    expect((await put(owner, workspaceId, theirs, body({ title: 'Taken over' }))).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', targetUrl(workspaceId, theirs))).statusCode).toBe(404);
    expect((await call(owner, 'GET', `/workspaces/${otherWorkspaceId}/targets`)).statusCode).toBe(404);
    expect((await put(owner, otherWorkspaceId, newId())).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', targetUrl(otherWorkspaceId, theirs))).statusCode).toBe(404);
    const still = await call(outsider, 'GET', `/workspaces/${otherWorkspaceId}/targets`);
    expect(still.json().data).toMatchObject([{ id: theirs, title: 'Q4 revenue' }]);
    expect((await call(null, 'GET', `/workspaces/${workspaceId}/targets`)).statusCode).toBe(401);
  });

  it.each([
    ['an end before the start', body({ dateEnd: '2026-09-30' }), END_BEFORE_START],
    ['an end on the start', body({ dateEnd: '2026-10-01' }), END_BEFORE_START],
    ['no title', body({ title: '  ' }), 'Invalid body: title: Title is required'],
    ['no metric', body({ metric: '' }), 'Invalid body: metric: Metric is required'],
    ['a target that is not a number', body({ target: '10' }), 'Invalid body: target: Target must be a number'],
    ['an impossible day', body({ dateStart: '2026-02-30' }), 'Invalid body: dateStart: Invalid date'],
    ['an unknown dataset', body({ dataset: 'orders' }), 'Invalid body: dataset: Unknown dataset'],
    ['an unknown key', body({ workspaceId: 1 }), 'Invalid body: Unrecognized key: "workspaceId"'],
    ['a metric not in the dataset', body({ metric: 'sessions_x' }), 'Unknown metric "sessions_x"'],
    ['a dimension as metric', body({ metric: 'country' }), 'Unknown metric "country"'],
    [
      'a filter on an unknown field',
      body({ filters: [{ member: 'colour', operator: 'equals', values: ['red'] }] }),
      'Invalid filter "colour": This field is not in the dataset',
    ],
    [
      'a filter without values',
      body({ filters: [{ member: 'country', operator: 'equals', values: [] }] }),
      'Invalid filter "country": This field is required',
    ],
    [
      'a nested filter on an unknown field',
      body({ filters: [{ or: [{ member: 'colour', operator: 'set' }] }] }),
      'Invalid filter "colour": This field is not in the dataset',
    ],
    [
      'a dataset the workspace lacks',
      body({ dataset: 'list_members', metric: 'members', filters: [] }),
      'Dataset "list_members" is not available in this workspace',
    ],
  ])('refuses %s with a 400 in the spec words', async (_case, payload, message) => {
    const { owner, workspaceId } = await team();
    const res = await put(owner, workspaceId, newId(), payload);
    expect([res.statusCode, res.json()]).toEqual([400, { error: message }]);
  });

  it('refuses a malformed target id and accepts every operator, custom fields included', async () => {
    const { owner, workspaceId } = await team();
    expect((await put(owner, workspaceId, 'a.b')).json()).toEqual({ error: 'Invalid target id' });
    const groups: CustomFieldGroup[] = [
      {
        table: 'campaign_metrics_by_send_date',
        action: 'insert_after',
        anchor: 'revenue',
        fields: [
          {
            id: 'margin',
            name: 'Margin',
            category: 'Conversion',
            format: 'currency',
            type: 'metric',
            features: [],
            custom: true,
            expr: 'revenue * 0.3',
          },
        ],
      },
    ];
    expect(await saveCustomFieldGroups(t.db.db, workspaceId, owner.userId, groups)).toEqual({ groups });
    const filters = [
      { member: 'sent', operator: 'outlier', values: ['-2'] },
      { member: 'send_date', operator: 'inDateRange', values: ['2026-10-01', '2026-10-31'] },
      { member: 'campaign_name', operator: 'set' },
      { member: 'margin', operator: 'gt', values: ['10'] },
    ];
    const res = await put(owner, workspaceId, newId(), body({ metric: 'margin', filters }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ metric: 'margin', filters });
  });

  it('a retried create makes one target, and the workspace bound holds', async () => {
    const { owner, workspaceId } = await team();
    const id = newId();
    const headers = { 'idempotency-key': `key-${id}-0123456789` };
    const first = await call(owner, 'PUT', targetUrl(workspaceId, id), body(), headers);
    const again = await call(owner, 'PUT', targetUrl(workspaceId, id), body(), headers);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const reused = await call(owner, 'PUT', targetUrl(workspaceId, id), body({ title: 'Other' }), headers);
    expect(reused.statusCode).toBe(422);
    expect((await put(owner, workspaceId, newId())).statusCode).toBe(201);
    expect((await put(owner, workspaceId, newId())).statusCode).toBe(201);
    const over = await put(owner, workspaceId, newId());
    expect([over.statusCode, over.json()]).toEqual([403, { error: TARGETS_PER_WORKSPACE_REACHED }]);
    // Updating an existing target is not a new one.
    expect((await put(owner, workspaceId, id, body({ title: 'Renamed' }))).statusCode).toBe(200);
    const listed = await call(owner, 'GET', `/workspaces/${workspaceId}/targets`);
    expect(listed.json().data).toHaveLength(3);
  });
});

describe('targets of a shared report', () => {
  it('shows only the targets its target widgets reference, and only while the link is on', async () => {
    const { owner, workspaceId, outsider, otherWorkspaceId } = await team();
    const [shown, second, hidden, foreign] = [newId(), newId(), newId(), newId()];
    for (const id of [shown, second, hidden]) expect((await put(owner, workspaceId, id)).statusCode).toBe(201);
    expect((await put(outsider, otherWorkspaceId, foreign)).statusCode).toBe(201);
    const config = {
      title: 'Goals',
      widgets: [
        { id: 'w1', type: 'target', targets: [second, shown, foreign, 'gone'] },
        { id: 'w2', type: 'graph', dataset: 'ga4', targets: [hidden], metrics: ['sessions'] },
      ],
    };
    const created = await call(owner, 'POST', `/workspaces/${workspaceId}/reports/dashboard`, {
      title: 'Goals',
      config,
    });
    const report = created.json().data as Report;
    const url = `/reports/${report.id}/targets`;
    expect((await call(null, 'GET', url)).statusCode).toBe(404);
    const shared = await call(owner, 'PUT', `/workspaces/${workspaceId}/permissions`, {
      accessLevel: 'read',
      objectId: report.id,
      objectType: 'dashboard',
      subjectType: 'public',
    });
    expect(shared.statusCode).toBe(200);
    const res = await call(null, 'GET', url);
    expect(res.statusCode).toBe(200);
    expect(targetListResponseSchema.parse(res.json()).data.map((target) => target.id)).toEqual([second, shown]);
    expect((await call(null, 'GET', '/reports/abc/targets')).statusCode).toBe(404);
    // The public link serves the targets' dataset for their cards, next to the graph's own.
    const datasets = await call(null, 'GET', `/reports/${report.id}/datasets`);
    expect(datasets.json().datasets.map((dataset: { id: string }) => dataset.id)).toEqual([
      'campaign_metrics_by_send_date',
      'ga4',
    ]);
  });
});
