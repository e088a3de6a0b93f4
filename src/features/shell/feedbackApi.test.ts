/** @jest-environment ./test/nodeEnvironment.js */
import { json, stubNetwork } from '../../../test/stubNetwork';
import { setupStore } from '../../store/store';
import { feedbackApi } from './feedbackApi';

describe('sending feedback (spec 1 §7)', () => {
  let restore: () => void = () => undefined;
  afterEach(() => restore());

  const send = (handler: Parameters<typeof stubNetwork>[0]) => {
    const network = stubNetwork(handler);
    restore = network.restore;
    const store = setupStore();
    const result = store.dispatch(feedbackApi.endpoints.sendFeedback.initiate({ message: 'Great', workspaceId: 3 }));
    return { result: result.unwrap(), calls: network.calls };
  };

  it('posts the message and workspace to the server as an API call', async () => {
    const { result, calls } = send(() => json({ ok: true }, 201));
    await expect(result).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    expect([calls[0].method, new URL(calls[0].url).pathname]).toEqual(['POST', '/api/feedback']);
    expect(calls[0].headers.get('X-Requested-With')).toBe('openrate');
    expect(await calls[0].json()).toEqual({ message: 'Great', workspaceId: 3 });
  });

  it('fails at once, without sending the feedback again, when the server fails', async () => {
    const { result, calls } = send(() => json({ error: 'Unknown error' }, 500));
    await expect(result).rejects.toMatchObject({ status: 500 });
    expect(calls).toHaveLength(1);
  });
});
