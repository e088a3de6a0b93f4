import { BlueprintProvider } from '@blueprintjs/core';
import { render, type RenderOptions } from '@testing-library/react';
import { type PropsWithChildren, type ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { setupStore, type AppStore, type RootState } from '../src/store/store';

export interface ExtendedRenderOptions extends Omit<RenderOptions, 'queries'> {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** The URL the router starts at. @default '/' */
  route?: string;
}

/**
 * Renders inside a real store and a memory router, as the application does. The providers are RTL's `wrapper`, so
 * `rerender` keeps them (as the Redux team's `renderWithProviders` does).
 */
export function renderWithProviders(ui: ReactElement, options: ExtendedRenderOptions = {}) {
  const { preloadedState, store = setupStore(preloadedState), route = '/', ...renderOptions } = options;
  function Providers({ children }: PropsWithChildren) {
    return (
      <Provider store={store}>
        <BlueprintProvider>
          <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
        </BlueprintProvider>
      </Provider>
    );
  }
  return { store, ...render(ui, { wrapper: Providers, ...renderOptions }) };
}
