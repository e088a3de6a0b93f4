/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../../test/stubNetwork';
import { type Me } from '../../../contracts/me';
import { type Workspace } from '../../../contracts/workspaces';
import { WidgetCrashed } from '../../widgets/WidgetStates';
import { DrawerHost } from './DrawerHost';

const user = { memberId: 7, name: 'Mia', showGettingStarted: false } as unknown as Me;
const workspace = { id: 3, name: 'Shop', role: 'member', status: 'active' } as unknown as Workspace;

let network: ReturnType<typeof stubNetwork>;
const sent: unknown[] = [];
beforeEach(() => {
  network = stubNetwork(async (request) => {
    if (request.url.endsWith('/api/feedback') && request.method === 'POST') {
      sent.push(await request.json());
      return json({ ok: true });
    }
    return json({ error: 'Not found' }, 404);
  });
});
afterEach(() => network.restore());

test("a crashed widget's 'Create ticket' opens the feedback drawer prefilled with the widget and its error", async () => {
  renderWithProviders(
    <>
      <WidgetCrashed widget="Sales (table w1)" error={new Error('Binder Error: column "x" not found')} />
      <DrawerHost user={user} workspace={workspace} />
    </>,
  );
  fireEvent.click(screen.getByRole('link', { name: 'Create ticket' }));
  const message = (await screen.findByRole('textbox', { name: 'Your feedback' })) as HTMLTextAreaElement;
  expect(screen.getByRole('heading', { name: 'Feedback' })).toBeTruthy();
  expect(message.value).toBe('Widget: Sales (table w1)\nError: Binder Error: column "x" not found\n\n');
  fireEvent.change(message, { target: { value: `${message.value}It happens after I pick a filter.` } });
  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
  expect(await screen.findByText('Thank you for your feedback!')).toBeTruthy();
  expect(sent).toEqual([
    {
      workspaceId: 3,
      message:
        'Widget: Sales (table w1)\nError: Binder Error: column "x" not found\n\nIt happens after I pick a filter.',
    },
  ]);
  // The thank-you screen closes the drawer by itself after 3 s.
  await waitFor(() => expect(screen.queryByText('Thank you for your feedback!')).toBeNull(), { timeout: 10_000 });
});
