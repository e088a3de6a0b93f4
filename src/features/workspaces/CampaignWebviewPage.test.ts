/** @jest-environment ./test/nodeEnvironment.js */
import { json, stubNetwork } from '../../../test/stubNetwork';
import { setupStore } from '../../store/store';
import { campaignApi, webPageUrl } from './CampaignWebviewPage';

describe('campaign preview URL (spec 1 §7, spec 3 §7)', () => {
  let restore: () => void = () => undefined;
  afterEach(() => restore());

  async function fetchDetails(handler: Parameters<typeof stubNetwork>[0]) {
    const network = stubNetwork(handler);
    restore = network.restore;
    const store = setupStore();
    const result = await store.dispatch(
      campaignApi.endpoints.getCampaignDetails.initiate({ workspaceId: '7', campaignId: 'cmp-5' }),
    );
    return { result, paths: network.calls.map((call) => new URL(call.url).pathname) };
  }

  it('asks the datasets route for the campaign’s web-view URL', async () => {
    const { result, paths } = await fetchDetails(() => json({ url: 'https://view.openrate.app/c/5' }));
    expect(result.data).toEqual({ url: 'https://view.openrate.app/c/5' });
    expect(paths).toEqual(['/api/workspaces/7/datasets/campaigns/cmp-5']);
  });

  it('does not retry a 404', async () => {
    const { result, paths } = await fetchDetails(() => json({ error: 'Not found' }, 404));
    expect(result.isError).toBe(true);
    expect(paths).toHaveLength(1);
  });

  it('tries a failing call 3 times in all', async () => {
    const { result, paths } = await fetchDetails(() => json({ error: 'Unknown error' }, 500));
    expect(result.isError).toBe(true);
    expect(paths).toHaveLength(3);
  }, 10_000);

  it('follows only web pages', () => {
    expect(webPageUrl('https://view.openrate.app/c/5')).toBe('https://view.openrate.app/c/5');
    expect(webPageUrl('http://example.com/x')).toBe('http://example.com/x');
    expect(webPageUrl('javascript:alert(1)')).toBeNull();
    expect(webPageUrl('not a url')).toBeNull();
    expect(webPageUrl(null)).toBeNull();
  });
});
