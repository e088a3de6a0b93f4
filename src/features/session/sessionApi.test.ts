/** @jest-environment ./test/nodeEnvironment.js */
import { json, stubNetwork } from '../../../test/stubNetwork';
import { setupStore } from '../../store/store';
import { sessionApi } from './sessionApi';

describe('the session through the one api', () => {
  let restore: () => void = () => undefined;
  afterEach(() => restore());

  const getSession = (handler: Parameters<typeof stubNetwork>[0]) => {
    const network = stubNetwork(handler);
    restore = network.restore;
    const store = setupStore();
    const request = store.dispatch(sessionApi.endpoints.getSession.initiate());
    return { result: request.unwrap().finally(() => request.unsubscribe()), calls: network.calls };
  };

  it('asks GET /session, outside the /api prefix, with the API header', async () => {
    const { result, calls } = getSession(() => json({ user_id: 7, expires_at: '2026-11-24T20:00:00Z' }));
    await expect(result).resolves.toEqual({ user_id: 7, expires_at: '2026-11-24T20:00:00Z' });
    expect(calls.map((call) => new URL(call.url).pathname)).toEqual(['/session']);
    expect(calls[0].headers.get('X-Requested-With')).toBe('openrate');
  });

  it('refuses an answer that is not a session, and does not ask again', async () => {
    const { result, calls } = getSession(() => json({ user: 'mia' }));
    await expect(result).rejects.toMatchObject({ name: 'SchemaError' });
    expect(calls).toHaveLength(1);
  });

  it('does not repeat a failed poll by itself', async () => {
    const { result, calls } = getSession(() => json({ error: 'Unknown error' }, 503));
    await expect(result).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(1);
  });
});
