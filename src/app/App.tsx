import { OverlaysProvider } from '@blueprintjs/core';
import { useState } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import type { AppStore } from '../store/store';
import { createAppRouter } from './router';
import { ThemeSync } from './ThemeSync';

export interface AppProps {
  /** The store the whole application shares. */
  store: AppStore;
}

export function App({ store }: AppProps) {
  const [router] = useState(createAppRouter);
  return (
    <Provider store={store}>
      {/* Blueprint's hotkeys (the ? list and its dialog) come with the workspace shell, out of the first load. */}
      <OverlaysProvider>
        <ThemeSync />
        <RouterProvider router={router} />
      </OverlaysProvider>
    </Provider>
  );
}
