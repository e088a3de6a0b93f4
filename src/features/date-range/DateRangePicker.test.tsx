import { fireEvent, screen, waitFor } from '@testing-library/react';
import { format } from 'date-fns';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { type DashboardConfig } from '../../contracts/reports';
import { compareRange, mainPresetRange } from '../../engine/dates';
import { DateRangePicker, monthCountForWidth } from './DateRangePicker';
import { localToday } from './ranges';

const saved: DashboardConfig['dateRanges'] = {
  main: { preset: 'last_30_days' },
  compare: { preset: 'preceding_period' },
};

function renderPicker(comparison = true) {
  const onApply = jest.fn();
  renderWithProviders(<DateRangePicker value={saved} comparison={comparison} weekStart={1} onApply={onApply} />);
  fireEvent.click(screen.getByRole('button', { name: /Last 30 days/ }));
  return onApply;
}

describe('DateRangePicker', () => {
  test('the button shows the preset and the comparison', () => {
    renderWithProviders(<DateRangePicker value={saved} comparison weekStart={1} onApply={jest.fn()} />);
    expect(screen.getByRole('button', { name: /Last 30 days: .* vs Preceding period/ })).toBeTruthy();
  });

  test('picking a preset and Apply hands the new ranges over and closes', async () => {
    const onApply = renderPicker();
    fireEvent.click(screen.getByText('Last week'));
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    const main = mainPresetRange('last_week', localToday(), 1);
    expect(onApply).toHaveBeenCalledWith({
      main: { ...main, preset: 'last_week' },
      compare: { ...compareRange(main, 'preceding_period'), preset: 'preceding_period' },
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Date range picker' })).toBeNull());
  });

  test('Apply without a change does not call onApply', () => {
    const onApply = renderPicker();
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onApply).not.toHaveBeenCalled();
  });

  test('Escape cancels and Enter applies', async () => {
    const onApply = renderPicker();
    fireEvent.click(screen.getByText('Last week'));
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Date range picker' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Date range picker' })).toBeNull());
    expect(onApply).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: /Last 30 days/ }));
    expect(screen.getByLabelText('From')).toHaveProperty(
      'value',
      mainPresetRange('last_30_days', localToday(), 1).start,
    );
    fireEvent.click(screen.getByText('This month'));
    fireEvent.keyDown(screen.getByLabelText('From'), { key: 'Enter' });
    expect(onApply).toHaveBeenCalledTimes(1);
    expect(onApply.mock.calls[0][0].main.preset).toBe('this_month');
  });

  test('a typed end before the start shows the message and disables Apply; invalid text is ignored', () => {
    renderPicker();
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2024-02-30' } });
    expect(screen.queryByText('End date cannot be earlier than start date.')).toBeNull();
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2000-01-01' } });
    expect(screen.getByText('End date cannot be earlier than start date.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Apply' })).toHaveProperty('disabled', true);
  });

  test('the comparison tab is offered on dashboards only; disabling comparison returns to the main tab', () => {
    renderPicker();
    const main = mainPresetRange('last_30_days', localToday(), 1);
    const compare = compareRange(main, 'preceding_period')!;
    expect(screen.getByText(`Comparison: ${compare.start} – ${compare.end}`)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Comparison' }));
    expect(screen.getByText(`Date range: ${main.start} – ${main.end}`)).toBeTruthy();
    expect(screen.getByText('Year over year')).toBeTruthy();
    fireEvent.click(screen.getByText('No comparison'));
    expect(screen.getByRole('tab', { name: 'Date range' }).getAttribute('aria-selected')).toBe('true');
  });

  test('no comparison tab on explorer views', () => {
    renderPicker(false);
    expect(screen.queryByRole('tab', { name: 'Comparison' })).toBeNull();
  });

  test('clicking a month title selects that month', () => {
    const onApply = renderPicker();
    const lastMonth = mainPresetRange('last_month', localToday(), 1);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: lastMonth.start } });
    const [year, month] = lastMonth.start.split('-').map(Number);
    fireEvent.click(screen.getByRole('button', { name: format(new Date(year, month - 1, 1), 'MMMM yyyy') }));
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onApply.mock.calls[0][0].main).toEqual({ ...lastMonth, preset: 'last_month' });
  });

  test.each([
    [1600, 3],
    [1280, 3],
    [1000, 2],
    [800, 2],
    [640, 1],
  ])('a %i px window shows %i month(s)', (width, months) => {
    expect(monthCountForWidth(width)).toBe(months);
  });
});
