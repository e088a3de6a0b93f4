import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { type ReportFilter } from '../../contracts/reports';
import { FilterForm } from './FilterForm';
import { sendSchema } from './testSchema';

const scope = { workspaceId: 1 };
const nested: ReportFilter[] = [
  { member: 'country', operator: 'notSet' },
  {
    or: [
      { member: 'campaign_name', operator: 'contains', values: ['spring'] },
      { member: 'country', operator: 'equals', values: ['NL', 'BE'] },
    ],
  },
];

test('a read-only form shows each filter in words, groups included', () => {
  renderWithProviders(<FilterForm schema={sendSchema} scope={scope} value={nested} onChange={jest.fn()} readOnly />);
  expect(screen.getByText('country label Is empty')).toBeTruthy();
  expect(screen.getByText('(campaign_name label Contains spring) or (country label Is NL, BE)')).toBeTruthy();
  expect(screen.queryByRole('combobox')).toBeNull();
});

test('nested groups are shown and can be removed; top-level rows are edited', () => {
  const onChange = jest.fn();
  renderWithProviders(<FilterForm schema={sendSchema} scope={scope} value={nested} onChange={onChange} />);
  const group = screen.getByRole('group', { name: 'Any of' });
  expect(within(group).getByText('(campaign_name label Contains spring) or (country label Is NL, BE)')).toBeTruthy();
  fireEvent.click(within(group).getByRole('button', { name: 'Remove filter' }));
  expect(onChange).toHaveBeenLastCalledWith([nested[0]]);

  const row = screen.getByRole('group', { name: 'Filter' });
  const operators = within(row)
    .getAllByRole('option')
    .filter((option) => option.closest('select')?.getAttribute('aria-label') === 'Operator')
    .map((option) => option.textContent);
  expect(operators).toEqual([
    'Select an operator',
    'Is',
    'Is not',
    'Contains',
    'Does not contain',
    'Starts with',
    'Ends with',
    'Is not empty',
    'Is empty',
  ]);
  fireEvent.change(within(row).getByRole('combobox', { name: 'Operator' }), { target: { value: 'startsWith' } });
  expect(onChange).toHaveBeenLastCalledWith([{ member: 'country', operator: 'startsWith', values: [] }, nested[1]]);
});

test('the member list leaves out hidden and URL fields, and an unknown member raises an issue on it', () => {
  renderWithProviders(
    <FilterForm
      schema={sendSchema}
      scope={scope}
      value={[{ member: 'device', operator: 'set' }]}
      onChange={jest.fn()}
    />,
  );
  const field = screen.getByRole('combobox', { name: 'Field' });
  const ids = within(field)
    .getAllByRole('option')
    .map((option) => option.getAttribute('value'));
  expect(ids).not.toContain('internal_id');
  expect(ids).not.toContain('landing_url');
  expect(ids).toContain('campaign_name');
  expect(screen.getByText('This field is not in the dataset')).toBeTruthy();
});

test('comparison operators take a number: a comma becomes a period and other characters go', () => {
  const onChange = jest.fn();
  renderWithProviders(
    <FilterForm
      schema={sendSchema}
      scope={scope}
      value={[{ member: 'send_weekday', operator: 'gt', values: [] }]}
      onChange={onChange}
    />,
  );
  expect(screen.getByText('This field is required')).toBeTruthy();
  fireEvent.change(screen.getByRole('textbox', { name: 'Value' }), { target: { value: '2,5x' } });
  expect(onChange).toHaveBeenLastCalledWith([{ member: 'send_weekday', operator: 'gt', values: ['2.5'] }]);
});

describe('as an alert’s conditions (spec 3 §5)', () => {
  const percentSchema = {
    ...sendSchema,
    fields: [
      ...sendSchema.fields,
      {
        ...sendSchema.fields[12],
        id: 'click_rate',
        name: 'click_rate',
        label: 'Click rate',
        format: 'percent' as const,
      },
      { ...sendSchema.fields[8], id: 'score', name: 'score', label: 'Score', features: ['gauge' as const] },
    ],
  };

  test('the rows offer visible metrics only, gauges left out', () => {
    renderWithProviders(
      <FilterForm kind="conditions" schema={percentSchema} scope={scope} value={[{}]} onChange={jest.fn()} />,
    );
    const ids = within(screen.getByRole('combobox', { name: 'Field' }))
      .getAllByRole('option')
      .map((option) => option.getAttribute('value'));
    expect(ids).toEqual(['', 'sent', 'open', 'delivered', 'transactions', 'open_rate', 'click_rate']);
    expect(screen.getByRole('button', { name: 'Add condition' })).toBeTruthy();
  });

  test('a condition offers comparisons and outliers, not set or notSet', () => {
    renderWithProviders(
      <FilterForm
        kind="conditions"
        schema={percentSchema}
        scope={scope}
        value={[{ member: 'sent' }]}
        onChange={jest.fn()}
      />,
    );
    const operators = within(screen.getByRole('combobox', { name: 'Operator' }))
      .getAllByRole('option')
      .map((option) => option.getAttribute('value'));
    expect(operators).toEqual([
      '',
      'equals',
      'notEquals',
      'gt',
      'gte',
      'lt',
      'lte',
      'inRange',
      'outlierHigh',
      'outlierLow',
      'outlier',
    ]);
  });

  test('a percentage is shown ×100 and stored ÷100; the input keeps digits and one period', () => {
    const onChange = jest.fn();
    const value = [{ member: 'click_rate', operator: 'gt', values: ['0.07'] }];
    renderWithProviders(
      <FilterForm kind="conditions" schema={percentSchema} scope={scope} value={value} onChange={onChange} />,
    );
    const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'Value' });
    expect(input.value).toBe('7');
    fireEvent.change(input, { target: { value: '-12,5.3%' } });
    expect(onChange).toHaveBeenLastCalledWith([{ member: 'click_rate', operator: 'gt', values: ['0.1253'] }]);
  });

  test('equals on a metric takes a number, not a pick among distinct values', () => {
    const onChange = jest.fn();
    const value = [{ member: 'sent', operator: 'equals', values: [] }];
    renderWithProviders(
      <FilterForm kind="conditions" schema={percentSchema} scope={scope} value={value} onChange={onChange} />,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Value' }), { target: { value: '1.2.3' } });
    expect(onChange).toHaveBeenLastCalledWith([{ member: 'sent', operator: 'equals', values: ['1.23'] }]);
  });

  test('outliers take a sensitivity on a slider, Low to High sensitivity, stored with 3 decimals', () => {
    const onChange = jest.fn();
    const value = [{ member: 'sent', operator: 'outlierHigh', values: ['-2.0'] }];
    renderWithProviders(
      <FilterForm kind="conditions" schema={percentSchema} scope={scope} value={value} onChange={onChange} />,
    );
    for (const label of ['Low', 'Medium/Low', 'Medium', 'Medium/High', 'High sensitivity']) {
      expect(screen.getByText(label)).toBeTruthy();
    }
    const handle = screen.getByRole('slider', { name: 'Sensitivity' });
    expect(handle.getAttribute('aria-valuenow')).toBe('-2');
    fireEvent.keyDown(handle, { key: 'ArrowRight', which: 39, keyCode: 39 });
    expect(onChange).toHaveBeenLastCalledWith([{ member: 'sent', operator: 'outlierHigh', values: ['-1.750'] }]);
  });
});

test('a metric filter offers the comparisons and outliers and an Aggregate flag; a dimension drops the flag', () => {
  const onChange = jest.fn();
  const metricFilter: ReportFilter = { member: 'sent', operator: 'gt', values: ['100'] };
  const aggregated: ReportFilter = { ...metricFilter, member: 'open', aggregate: true };
  renderWithProviders(
    <FilterForm schema={sendSchema} scope={scope} value={[metricFilter, aggregated]} onChange={onChange} />,
  );
  const [row, aggregatedRow] = screen.getAllByRole('group', { name: 'Filter' });
  const operators = within(row).getByRole('combobox', { name: 'Operator' });
  expect(within(operators).getByRole('option', { name: 'Unusually high' })).toBeTruthy();
  expect(within(operators).getByRole('option', { name: 'Between' })).toBeTruthy();

  fireEvent.click(within(row).getByRole('checkbox', { name: 'Aggregate' }));
  expect(onChange).toHaveBeenLastCalledWith([{ ...metricFilter, aggregate: true }, aggregated]);

  expect((within(aggregatedRow).getByRole('checkbox', { name: 'Aggregate' }) as HTMLInputElement).checked).toBe(true);
  fireEvent.change(within(aggregatedRow).getByRole('combobox', { name: 'Field' }), { target: { value: 'country' } });
  const [[, switched]] = onChange.mock.lastCall as [ReportFilter[]];
  expect(switched.member).toBe('country');
  expect('aggregate' in switched).toBe(false);
});
