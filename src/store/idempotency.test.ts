/** @jest-environment ./test/nodeEnvironment.js */
import { json, stubNetwork } from '../../test/stubNetwork';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '../contracts/common';
import { annotationsApi } from '../features/annotations/annotationsApi';
import { reportsApi } from '../features/reports/reportsApi';
import { workspacesApi } from '../features/workspaces/workspacesApi';
import { newIdempotencyKey } from './idempotency';
import { setupStore } from './store';

const report = {
  id: 9,
  workspace_id: 3,
  type: 'dashboard',
  title: 'Q1',
  dataset: null,
  config: { title: 'Q1', widgets: [] },
  version: 1,
  owner: null,
  created_at: '2026-01-01T00:00:00.000Z',
  created_by: null,
  modified_at: '2026-01-01T00:00:00.000Z',
  modified_by: null,
  last_opened_at: null,
  access_level: 'full_access',
  share_level: 'private',
};

const annotation = {
  id: 4,
  workspace_id: 3,
  severity: 'note',
  message: 'Launch',
  date_start: '2026-02-01',
  date_end: '2026-02-01',
  created_at: '2026-01-01T00:00:00.000Z',
  modified_at: '2026-01-01T00:00:00.000Z',
  created_by_id: 1,
  created_by_name: 'Sam',
  created_by_email: 'sam@example.com',
};

describe('Idempotency-Key of create and save calls', () => {
  let restore: () => void = () => undefined;
  afterEach(() => restore());

  it('is a fresh 128-bit key each time, in the format the server takes', () => {
    const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN);
  });

  // The first attempt's answer is lost (a 503 from a proxy); the retry must repeat the same key.
  const flaky = (answer: () => Response) => {
    let attempts = 0;
    return () => {
      attempts += 1;
      return attempts % 2 === 1 ? json({ error: 'Service unavailable' }, 503) : answer();
    };
  };

  it.each([
    [
      'create a report',
      () => json({ data: report }, 201),
      (store: ReturnType<typeof setupStore>) =>
        store.dispatch(reportsApi.endpoints.createReport.initiate({ workspaceId: 3, type: 'dashboard', title: 'Q1' })),
    ],
    [
      'save a report',
      () => json({ data: report }),
      (store: ReturnType<typeof setupStore>) =>
        store.dispatch(
          reportsApi.endpoints.saveReport.initiate({
            workspaceId: 3,
            type: 'dashboard',
            id: 9,
            body: { config: { widgets: [] }, version: 1 },
          }),
        ),
    ],
    [
      'duplicate a report',
      () => json({ data: report }, 201),
      (store: ReturnType<typeof setupStore>) =>
        store.dispatch(reportsApi.endpoints.duplicateReport.initiate({ workspaceId: 3, type: 'dashboard', id: 9 })),
    ],
    [
      'add an annotation',
      () => json({ data: annotation }, 201),
      (store: ReturnType<typeof setupStore>) =>
        store.dispatch(
          annotationsApi.endpoints.saveAnnotation.initiate({
            workspaceId: 3,
            body: { severity: 'note', message: 'Launch', date_start: '2026-02-01', date_end: '2026-02-01' },
          }),
        ),
    ],
    [
      'create a workspace',
      () => json({ id: 5 }, 201),
      (store: ReturnType<typeof setupStore>) =>
        store.dispatch(workspacesApi.endpoints.createWorkspace.initiate({ name: 'Acme' })),
    ],
  ])(
    '%s: one key per user action, repeated by its retry',
    async (_name, answer, act) => {
      const network = stubNetwork(flaky(answer));
      restore = network.restore;
      const store = setupStore();
      await act(store).unwrap();
      await act(store).unwrap();
      const keys = network.calls.map((request) => request.headers.get(IDEMPOTENCY_HEADER));
      expect(keys).toHaveLength(4);
      for (const key of keys) expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN);
      // Attempts 1 and 2 are one action, 3 and 4 the next.
      expect(keys[1]).toBe(keys[0]);
      expect(keys[3]).toBe(keys[2]);
      expect(keys[2]).not.toBe(keys[0]);
    },
    20_000,
  );
});
