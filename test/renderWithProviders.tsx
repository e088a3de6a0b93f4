import { BlueprintProvider } from '@blueprintjs/core';
import { render, type RenderOptions } from '@testing-library/react';
import { type ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { setupStore, type AppStore, type RootState } from '../src/store/store';

export interface ExtendedRenderOptions extends Omit<RenderOptions, 'queries'> {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** The URL the router starts at. @default '/' */
  route?: string;
}

/** Renders inside a real store and a memory router, as the application does. */
export function renderWithProviders(ui: ReactElement, options: ExtendedRenderOptions = {}) {
  const { preloadedState, store = setupStore(preloadedState), route = '/', ...renderOptions } = options;
  const result = render(
    <Provider store={store}>
      <BlueprintProvider>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
      </BlueprintProvider>
    </Provider>,
    renderOptions,
  );
  return { store, ...result };
}
