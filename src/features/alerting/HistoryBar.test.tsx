import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { sendSchema } from '../widget-config/testSchema';
import { DayDetails } from './HistoryBar';

const schema = {
  ...sendSchema,
  fields: sendSchema.fields.map((field) =>
    field.id === 'open_rate' ? { ...field, format: 'percent' as const } : field,
  ),
};

test('a day’s rows: the first 10 with the spec’s note, labelled and formatted as the dataset says', () => {
  const results = Array.from({ length: 12 }, (_, index) => ({
    group: `Country ${index + 1}`,
    values: { open_rate: 0.25 },
    result: index % 2 === 0,
  }));
  renderWithProviders(
    <DayDetails
      details={{ dimension: 'country', metrics: ['open_rate'], results, total: 40 }}
      format={{ schema, locale: 'en_GB' }}
    />,
  );
  expect(screen.getByRole('columnheader', { name: 'country label' })).toBeTruthy();
  expect(screen.getByRole('columnheader', { name: 'open_rate label' })).toBeTruthy();
  expect(screen.getAllByRole('row')).toHaveLength(11);
  expect(screen.getByText('Country 10')).toBeTruthy();
  expect(screen.queryByText('Country 11')).toBeNull();
  expect(screen.getAllByText('25.00%')).toHaveLength(10);
  expect(screen.getByText('Showing first 10 out of 40 results')).toBeTruthy();
});
