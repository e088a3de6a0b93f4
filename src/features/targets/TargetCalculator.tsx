import { Button, ButtonGroup, Callout, FormGroup, Slider } from '@blueprintjs/core';
import { useEffect } from 'react';
import { type Locale } from '../../contracts/common';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { type Filter } from '../../engine/filters';
import { formatField, TARGET_CURRENCY } from '../../engine/format';
import { useTargetHistoryQuery } from '../../store/engineApi';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { type DataScope } from '../widgets/types';
import { resultRows } from '../widgets/widgetQuery';
import {
  calculatorClosed,
  type CalculatorPeriod,
  calculatorPeriods,
  calculatorToggled,
  MAX_PERCENTAGE,
  MIN_PERCENTAGE,
  percentageSet,
  periodSelected,
  selectTargetCalculator,
} from './targetCalculatorSlice';

/** Spec 2 §8, word for word. */
export const NOT_ENOUGH_DATA = 'Not enough data available for this period';
const periodLabels: Record<CalculatorPeriod, string> = {
  preceding_period: 'Preceding period',
  year_over_year: 'Year over year',
};

interface TargetCalculatorProps {
  /** The card the calculator belongs to. */
  name: string;
  scope: DataScope;
  schema: DatasetSchema;
  version: string;
  field: Field;
  range: { start: string; end: string };
  filters: Filter[];
  locale: Locale;
  /** Takes the calculated value as the target. */
  onApply(value: number): void;
}

/** The periods' values of the metric; a period without a day of data has none. */
function usePeriodValues(props: TargetCalculatorProps, skip: boolean): Map<CalculatorPeriod, number> | undefined {
  const { data } = useTargetHistoryQuery(
    {
      workspaceId: props.scope.workspaceId,
      query: {
        kind: 'targetHistory',
        dataset: props.schema.id,
        metric: props.field.id,
        range: props.range,
        filters: props.filters,
      },
      version: props.version,
    },
    { skip },
  );
  if (!data) return undefined;
  const values = new Map<CalculatorPeriod, number>();
  for (const row of resultRows(data)) {
    const value = row[props.field.id];
    if (Number(row.days) > 0 && typeof value === 'number') values.set(row.period as CalculatorPeriod, value);
  }
  return values;
}

/**
 * The target calculator (spec 2 §4): the metric's value over the preceding period or a year earlier, adjusted
 * by -25 % to +100 %, proposed as the target. Periods without data cannot be chosen.
 */
export function TargetCalculator(props: TargetCalculatorProps) {
  const { name, field, locale } = props;
  const dispatch = useAppDispatch();
  const calculator = useAppSelector((state) => selectTargetCalculator(state, name));
  const values = usePeriodValues(props, !calculator.isOpen);
  // Leaving the card (the drawer closes) closes its calculator, which forgets its numbers.
  useEffect(() => () => void dispatch(calculatorClosed({ name })), [dispatch, name]);
  const show = (value: number) => formatField(value, field, locale, { currency: TARGET_CURRENCY });
  if (!calculator.isOpen) {
    return (
      <Button
        icon="calculator"
        text="Target calculator"
        variant="minimal"
        onClick={() => dispatch(calculatorToggled({ name }))}
      />
    );
  }
  const missing = values ? calculatorPeriods.filter((period) => !values.has(period)) : [];
  return (
    <section className="or-target-calculator" aria-label="Target calculator">
      <Button
        icon="calculator"
        text="Target calculator"
        variant="minimal"
        active
        onClick={() => dispatch(calculatorToggled({ name }))}
      />
      <ButtonGroup>
        {calculatorPeriods.map((period) => {
          const value = values?.get(period);
          return (
            <Button
              key={period}
              text={`${periodLabels[period]}: ${value === undefined ? '–' : show(value)}`}
              active={calculator.period === period}
              disabled={value === undefined}
              onClick={() => value !== undefined && dispatch(periodSelected({ name, period, value }))}
            />
          );
        })}
      </ButtonGroup>
      {missing.map((period) => (
        <Callout key={period} intent="warning" compact>
          {periodLabels[period]}: {NOT_ENOUGH_DATA}
        </Callout>
      ))}
      <FormGroup label="Adjustment (%)">
        <Slider
          min={MIN_PERCENTAGE}
          max={MAX_PERCENTAGE}
          stepSize={1}
          labelStepSize={25}
          value={calculator.percentage}
          disabled={calculator.period === null}
          onChange={(percentage) => dispatch(percentageSet({ name, percentage }))}
          handleHtmlProps={{ 'aria-label': 'Adjustment percentage' }}
        />
      </FormGroup>
      <div>
        Calculated target: <strong aria-label="Calculated target">{show(calculator.calculatedValue)}</strong>
      </div>
      <Button
        text="Use as target"
        intent="primary"
        disabled={calculator.period === null}
        onClick={() => {
          props.onApply(calculator.calculatedValue);
          dispatch(calculatorClosed({ name }));
        }}
      />
    </section>
  );
}
