import { Spinner } from '@blueprintjs/core';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router-dom';
import { NotFoundPage } from './pages/NotFoundPage';
import { RouteErrorPage } from './pages/RouteErrorPage';

/** Every route of the product. Feature pages are loaded lazily so each route has its own chunk. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Outlet />,
    errorElement: <RouteErrorPage />,
    // Shown while the first route's lazily loaded chunk arrives.
    hydrateFallbackElement: <Spinner className="or-page-spinner" />,
    children: [
      {
        index: true,
        lazy: () =>
          import(/* webpackChunkName: "home" */ './pages/HomePage').then(({ HomePage }) => ({ Component: HomePage })),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
