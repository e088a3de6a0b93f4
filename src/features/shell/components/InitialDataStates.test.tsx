import { act, fireEvent, render, screen } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { InitialDataErrorPage, InitialDataSpinner, STALL_MS } from './InitialDataStates';

describe('initial data states (spec 1 §4)', () => {
  afterEach(() => jest.useRealTimers());

  it('reports a stall after 5 seconds of loading', () => {
    jest.useFakeTimers();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(<InitialDataSpinner />);
    expect(screen.queryByText('This is taking longer than usual…')).toBeNull();
    act(() => {
      jest.advanceTimersByTime(STALL_MS);
    });
    expect(screen.getByText('This is taking longer than usual…')).toBeTruthy();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(STALL_MS).toBe(5_000);
    warn.mockRestore();
  });

  it('offers the options and Try again on error', () => {
    const onRetry = jest.fn();
    renderWithProviders(<InitialDataErrorPage onRetry={onRetry} />);
    expect(screen.getByText('Yikes, we encountered an error!')).toBeTruthy();
    expect(screen.getByText('Sign in again')).toBeTruthy();
    expect(screen.getByText('Try a different browser')).toBeTruthy();
    expect(screen.getByText('Check your internet connection')).toBeTruthy();
    fireEvent.click(screen.getByText('Try again'));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
