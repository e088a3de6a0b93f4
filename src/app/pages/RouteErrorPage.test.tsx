/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { act, render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { RouteErrorPage } from './RouteErrorPage';

/** A route whose code cannot be fetched, as a lazily loaded page's chunk fails while the connection is down. */
function renderFailingRoute(reload: () => void) {
  const router = createMemoryRouter([
    {
      path: '/',
      errorElement: <RouteErrorPage reload={reload} />,
      lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    },
  ]);
  return render(<RouterProvider router={router} />);
}

describe('the router’s error page', () => {
  let online = true;
  const reload = jest.fn();
  beforeEach(() => {
    online = true;
    reload.mockReset();
    jest.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  });
  afterEach(() => jest.restoreAllMocks());

  it('says the connection is gone while offline, and loads the page again once it is back', async () => {
    online = false;
    renderFailingRoute(reload);
    expect(await screen.findByText('No internet connection was found')).toBeTruthy();
    expect(screen.queryByText('Yikes, we encountered an error!')).toBeNull();
    expect(reload).not.toHaveBeenCalled();

    online = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('shows the error page, with a way to try again, when the browser is online', async () => {
    renderFailingRoute(reload);
    expect(await screen.findByText('Yikes, we encountered an error!')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });
});
