import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../store/store';

/** The periods the calculator compares the target's period with (spec 2 §4 Target calculator). */
export const calculatorPeriods = ['preceding_period', 'year_over_year'] as const;
export type CalculatorPeriod = (typeof calculatorPeriods)[number];

/** The adjustment slider: -25 % to +100 % in steps of 1 (spec 2 §5, §9). */
export const MIN_PERCENTAGE = -25;
export const MAX_PERCENTAGE = 100;

export interface TargetCalculator {
  isOpen: boolean;
  period: CalculatorPeriod | null;
  /** The chosen period's value of the metric. */
  value: number;
  /** The adjustment over that value, in whole percent. */
  percentage: number;
  /** value × (1 + percentage / 100): what the calculator proposes as target. */
  calculatedValue: number;
}

/** Calculators by the name of the card they belong to (a drawer's preview, a target id). */
export type TargetCalculatorState = Record<string, TargetCalculator>;

export const closedCalculator: TargetCalculator = {
  isOpen: false,
  period: null,
  value: 0,
  percentage: 0,
  calculatedValue: 0,
};

const initialState: TargetCalculatorState = {};

const clampPercentage = (percentage: number) =>
  Math.min(MAX_PERCENTAGE, Math.max(MIN_PERCENTAGE, Math.round(Number.isFinite(percentage) ? percentage : 0)));

/** value × (1 + pct/100), rounded to the cent the target input keeps. */
export const adjusted = (value: number, percentage: number) => Math.round(value * (1 + percentage / 100) * 100) / 100;

type Named<T = object> = PayloadAction<{ name: string } & T>;

const targetCalculatorSlice = createSlice({
  name: 'targetCalculator',
  initialState,
  reducers: {
    calculatorOpened(state, action: Named) {
      state[action.payload.name] = { ...(state[action.payload.name] ?? closedCalculator), isOpen: true };
    },
    /** Closing forgets the numbers: the next opening starts from nothing. */
    calculatorClosed(state, action: Named) {
      delete state[action.payload.name];
    },
    calculatorToggled(state, action: Named) {
      if (state[action.payload.name]?.isOpen) delete state[action.payload.name];
      else state[action.payload.name] = { ...closedCalculator, isOpen: true };
    },
    periodSelected(state, action: Named<{ period: CalculatorPeriod; value: number }>) {
      const { name, period, value } = action.payload;
      state[name] = { ...(state[name] ?? closedCalculator), period, value, calculatedValue: value, percentage: 0 };
    },
    percentageSet(state, action: Named<{ percentage: number }>) {
      const calculator = state[action.payload.name];
      if (!calculator) return;
      calculator.percentage = clampPercentage(action.payload.percentage);
      calculator.calculatedValue = adjusted(calculator.value, calculator.percentage);
    },
  },
  selectors: {
    selectTargetCalculator: (state, name: string): TargetCalculator => state[name] ?? closedCalculator,
  },
});

declare module '../../store/store' {
  interface LazyLoadedSlices {
    targetCalculator: TargetCalculatorState;
  }
}

// With the targets' screens, so the calculator's code stays out of the first load; until then its selector reads
// the initial state.
const injectedSlice = targetCalculatorSlice.injectInto(rootReducer);

export const { calculatorOpened, calculatorClosed, calculatorToggled, periodSelected, percentageSet } =
  targetCalculatorSlice.actions;
export const { selectTargetCalculator } = injectedSlice.selectors;
export const targetCalculatorReducer = targetCalculatorSlice.reducer;
