import { BlueprintProvider } from '@blueprintjs/core';
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
      {/* Its HotkeysProvider opens the shortcut list on ?; the title names that dialog. */}
      <BlueprintProvider hotkeysProviderDialogProps={{ title: 'Keyboard shortcuts' }}>
        <ThemeSync />
        <RouterProvider router={router} />
      </BlueprintProvider>
    </Provider>
  );
}
