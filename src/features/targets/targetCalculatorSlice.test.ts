import {
  calculatorClosed,
  calculatorOpened,
  calculatorToggled,
  closedCalculator,
  percentageSet,
  periodSelected,
  targetCalculatorReducer as reduce,
  type TargetCalculatorState,
} from './targetCalculatorSlice';

const name = 'preview';
const start = (): TargetCalculatorState => reduce(undefined, { type: 'init' });
const opened = () => reduce(start(), calculatorOpened({ name }));
const withPeriod = () => reduce(opened(), periodSelected({ name, period: 'preceding_period', value: 1000 }));

describe('target calculator', () => {
  test('starts with no calculator', () => {
    expect(start()).toEqual({});
  });

  test('open: an open calculator with nothing chosen', () => {
    expect(opened()).toEqual({ [name]: { ...closedCalculator, isOpen: true } });
  });

  test('open keeps the numbers of a calculator already open', () => {
    expect(reduce(withPeriod(), calculatorOpened({ name }))[name]).toMatchObject({ value: 1000, isOpen: true });
  });

  test('selectPeriod sets the value and the calculated value, percentage 0', () => {
    const state = reduce(
      reduce(withPeriod(), percentageSet({ name, percentage: 10 })),
      periodSelected({ name, period: 'year_over_year', value: 400 }),
    );
    expect(state[name]).toEqual({
      isOpen: true,
      period: 'year_over_year',
      value: 400,
      percentage: 0,
      calculatedValue: 400,
    });
  });

  test('setPercentage: calculated = value × (1 + pct/100)', () => {
    expect(reduce(withPeriod(), percentageSet({ name, percentage: 10 }))[name]).toMatchObject({
      percentage: 10,
      calculatedValue: 1100,
    });
    expect(reduce(withPeriod(), percentageSet({ name, percentage: -25 }))[name].calculatedValue).toBe(750);
    expect(reduce(withPeriod(), percentageSet({ name, percentage: 100 }))[name].calculatedValue).toBe(2000);
  });

  test('setPercentage keeps to -25 … 100 in steps of 1', () => {
    expect(reduce(withPeriod(), percentageSet({ name, percentage: -40 }))[name].percentage).toBe(-25);
    expect(reduce(withPeriod(), percentageSet({ name, percentage: 250 }))[name].percentage).toBe(100);
    expect(reduce(withPeriod(), percentageSet({ name, percentage: 12.6 }))[name]).toMatchObject({
      percentage: 13,
      calculatedValue: 1130,
    });
  });

  test('setPercentage on a calculator that is not open changes nothing', () => {
    expect(reduce(start(), percentageSet({ name, percentage: 10 }))).toEqual({});
  });

  test('close resets value, percentage and calculated value to 0', () => {
    const closed = reduce(reduce(withPeriod(), percentageSet({ name, percentage: 10 })), calculatorClosed({ name }));
    expect(closed).toEqual({});
    expect(reduce(closed, calculatorOpened({ name }))[name]).toEqual({ ...closedCalculator, isOpen: true });
  });

  test('toggle opens a closed calculator and closes (resetting) an open one', () => {
    const toggledOpen = reduce(start(), calculatorToggled({ name }));
    expect(toggledOpen[name]).toEqual({ ...closedCalculator, isOpen: true });
    const used = reduce(
      reduce(toggledOpen, periodSelected({ name, period: 'preceding_period', value: 10 })),
      percentageSet({ name, percentage: 5 }),
    );
    expect(reduce(used, calculatorToggled({ name }))).toEqual({});
  });

  test('calculators of different cards are independent', () => {
    const both = reduce(withPeriod(), calculatorOpened({ name: 'other' }));
    expect(reduce(both, calculatorClosed({ name: 'other' }))[name].value).toBe(1000);
  });
});
