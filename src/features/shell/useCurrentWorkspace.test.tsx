import { screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { useCurrentWorkspace, workspaceIdFromUrl } from './useCurrentWorkspace';

/** Shows what a page's error boundary would: the error's message. */
class Boundary extends Component<{ children: ReactNode }, { message: string | null }> {
  override state = { message: null };
  static getDerivedStateFromError(error: Error) {
    return { message: error.message };
  }
  override render() {
    return this.state.message ? <p role="alert">{this.state.message}</p> : this.props.children;
  }
}

function WorkspaceName() {
  return <span>{useCurrentWorkspace().name}</span>;
}

describe('the workspace id of the URL (spec 1 §8 Missing workspace id)', () => {
  it('is the number the URL names', () => {
    expect(workspaceIdFromUrl('42')).toBe(42);
  });

  it.each([['abc'], ['0'], ['-3'], ['1.5'], ['99999999999']])('refuses %p as an invalid workspace id', (param) => {
    expect(() => workspaceIdFromUrl(param)).toThrow(new Error('Invalid workspace id'));
  });

  it('a page outside a workspace route says the workspace id was not found in the URL', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(
      <Routes>
        <Route
          path="/reports"
          element={
            <Boundary>
              <WorkspaceName />
            </Boundary>
          }
        />
      </Routes>,
      { route: '/reports' },
    );
    expect(screen.getByRole('alert').textContent).toBe('workspaceId was not found in url.');
  });
});
