import './dateRange.css';
import { Button, Classes, Menu, MenuItem, PopoverNext, Tab, Tabs } from '@blueprintjs/core';
import { format } from 'date-fns';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { type DashboardConfig } from '../../contracts/reports';
import { type WeekStart, comparePresets, mainPresets } from '../../engine/dates';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import {
  type MonthCount,
  type Period,
  applied,
  canceled,
  comparePresetPicked,
  dayPicked,
  dayTyped,
  mainPresetPicked,
  monthCountChanged,
  monthPicked,
  monthsShifted,
  opened,
  periodChanged,
  selectAppliedChange,
  selectDateRangePicker,
  selectDraftError,
  selectEndError,
  sideChanged,
  weekPicked,
} from './dateRangeSlice';
import { DayInput } from './DayInput';
import { RangeCalendar } from './RangeCalendar';
import { type PickerRanges, comparePresetLabels, localToday, mainPresetLabels, pickerRangesOf } from './ranges';

export interface DateRangePickerProps {
  /** The report's saved date ranges; presets resolve on today. */
  value: DashboardConfig['dateRanges'];
  /** Whether the Comparison tab is offered (dashboards only). */
  comparison: boolean;
  /** The viewer's first day of week. */
  weekStart: WeekStart;
  /** Called on Apply, only when the ranges changed. */
  onApply(next: NonNullable<DashboardConfig['dateRanges']>): void;
  /** @default false */
  disabled?: boolean;
}

/** Window widths from which the calendar shows three or two months (spec 2 §2: 3 large, 2 medium, 1 otherwise). */
export const THREE_MONTHS_MIN_WIDTH = 1280;
export const TWO_MONTHS_MIN_WIDTH = 800;

export function monthCountForWidth(width: number): MonthCount {
  if (width >= THREE_MONTHS_MIN_WIDTH) return 3;
  return width >= TWO_MONTHS_MIN_WIDTH ? 2 : 1;
}

function readableDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return format(new Date(y, m - 1, d), 'd MMM yyyy');
}

function summaryOf(ranges: PickerRanges, comparison: boolean): string {
  const { main, compare } = ranges;
  const text = `${mainPresetLabels[main.preset]}: ${readableDay(main.start)} – ${readableDay(main.end)}`;
  if (!comparison || compare.preset === 'disabled') return text;
  return `${text} vs ${comparePresetLabels[compare.preset]}`;
}

/** The report toolbar's date-range picker: a button showing the range, opening the picker popup. */
export function DateRangePicker({ value, comparison, weekStart, onApply, disabled = false }: DateRangePickerProps) {
  const dispatch = useAppDispatch();
  const picker = useAppSelector(selectDateRangePicker);
  const change = useAppSelector(selectAppliedChange);
  // The slice holds the one open picker; this instance shows it only while it is the one that opened it.
  const [owner, setOwner] = useState(false);
  const isOpen = owner && picker.open;
  const today = localToday();
  const current = pickerRangesOf(value, today, weekStart);

  useEffect(() => {
    if (!isOpen) return;
    const fit = () => dispatch(monthCountChanged(monthCountForWidth(window.innerWidth)));
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [dispatch, isOpen]);

  const open = () => {
    dispatch(monthCountChanged(monthCountForWidth(window.innerWidth)));
    dispatch(opened({ ranges: current, comparisonAllowed: comparison, today, weekStart }));
    setOwner(true);
  };
  const cancel = () => {
    dispatch(canceled());
    setOwner(false);
  };
  const apply = () => {
    if (!picker.draft || selectDraftError({ dateRange: picker })) return;
    if (change) onApply(change);
    dispatch(applied());
    setOwner(false);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // A focused button answers Enter itself (Cancel must not apply).
    if (event.key !== 'Enter' || event.target instanceof HTMLButtonElement) return;
    event.preventDefault();
    apply();
  };

  return (
    <PopoverNext
      // As the legacy Popover did: focus handed back to the button after the close transition would take it from
      // whatever the user clicked meanwhile (the next key, a space, then reopens the picker).
      shouldReturnFocusOnClose={false}
      isOpen={isOpen}
      disabled={disabled}
      placement="bottom-end"
      // Escape and a click outside close the popup: both cancel. PopoverNext also echoes each change of
      // isOpen back through onInteraction, so only a real change opens (a fresh draft) or cancels.
      onInteraction={(next) => next !== isOpen && (next ? open() : cancel())}
      content={isOpen && picker.draft ? <PickerPopup onApply={apply} onCancel={cancel} onKeyDown={onKeyDown} /> : <></>}
    >
      <Button icon="calendar" variant="minimal" disabled={disabled} className="or-range-button">
        {summaryOf(current, comparison)}
      </Button>
    </PopoverNext>
  );
}

interface PickerPopupProps {
  onApply(): void;
  onCancel(): void;
  onKeyDown(event: KeyboardEvent): void;
}

interface PresetMenuProps<Preset extends string> {
  label: string;
  presets: readonly Preset[];
  labels: Record<Preset, string>;
  active: Preset | undefined;
  onPick(preset: Preset): void;
}

/** The presets of one period beside the calendar; picking one keeps the popup open until Apply. */
function PresetMenu<Preset extends string>({ label, presets, labels, active, onPick }: PresetMenuProps<Preset>) {
  return (
    <Menu className="or-range-presets" aria-label={label}>
      {presets.map((preset) => (
        <MenuItem
          key={preset}
          text={labels[preset]}
          active={active === preset}
          shouldDismissPopover={false}
          onClick={() => onPick(preset)}
        />
      ))}
    </Menu>
  );
}

/** One period's tab: its presets, the From and To inputs, the calendar and the other period's legend. */
function PeriodPanel() {
  const dispatch = useAppDispatch();
  const picker = useAppSelector(selectDateRangePicker);
  const endError = useAppSelector((root) => selectEndError(root, picker.period));
  const draft = picker.draft;
  if (!draft) return null;
  const range = picker.period === 'main' ? draft.main : draft.compare;
  const other = picker.period === 'main' ? (picker.comparisonAllowed ? draft.compare : undefined) : draft.main;

  const presets =
    picker.period === 'main' ? (
      <PresetMenu
        label="Date range presets"
        presets={mainPresets}
        labels={mainPresetLabels}
        active={draft.main.preset}
        onPick={(preset) => dispatch(mainPresetPicked(preset))}
      />
    ) : (
      <PresetMenu
        label="Comparison presets"
        presets={comparePresets}
        labels={comparePresetLabels}
        active={draft.compare.preset}
        onPick={(preset) => dispatch(comparePresetPicked(preset))}
      />
    );

  return (
    <div className="or-range-body">
      {presets}
      <div className="or-range-main">
        <div className="or-range-inputs">
          <DayInput
            id={`range-${picker.period}-from`}
            label="From"
            value={range.start}
            onDay={(day) => dispatch(dayTyped({ side: 'start', day }))}
            onFocus={() => dispatch(sideChanged('start'))}
          />
          <DayInput
            id={`range-${picker.period}-to`}
            label="To"
            value={range.end}
            error={endError}
            onDay={(day) => dispatch(dayTyped({ side: 'end', day }))}
            onFocus={() => dispatch(sideChanged('end'))}
          />
        </div>
        <RangeCalendar
          firstMonth={picker.firstMonth}
          monthCount={picker.monthCount}
          weekStart={picker.weekStart}
          start={range.start}
          end={range.end}
          other={other}
          onDayClick={(day) => dispatch(dayPicked(day))}
          onWeekClick={(start) => dispatch(weekPicked(start))}
          onMonthClick={(first) => dispatch(monthPicked(first))}
          onShift={(months) => dispatch(monthsShifted(months))}
        />
        {other?.start && other.end && (
          <div className={`or-range-legend ${Classes.TEXT_MUTED}`}>
            <span className="or-range-legend-other" />
            {picker.period === 'main' ? 'Comparison' : 'Date range'}: {other.start} – {other.end}
          </div>
        )}
      </div>
    </div>
  );
}

function PickerPopup({ onApply, onCancel, onKeyDown }: PickerPopupProps) {
  const dispatch = useAppDispatch();
  const picker = useAppSelector(selectDateRangePicker);
  const blocked = useAppSelector(selectDraftError);
  if (!picker.draft) return null;
  const body = <PeriodPanel />;

  return (
    <div className="or-range-popup" onKeyDown={onKeyDown} role="dialog" aria-label="Date range picker">
      <Tabs
        id="date-range-period"
        renderActiveTabPanelOnly
        selectedTabId={picker.period}
        onChange={(period) => dispatch(periodChanged(period as Period))}
      >
        <Tab id="main" title="Date range" panel={body} />
        {picker.comparisonAllowed && <Tab id="compare" title="Comparison" panel={body} />}
      </Tabs>
      <div className={`or-range-footer ${Classes.DIALOG_FOOTER_ACTIONS}`}>
        <Button text="Cancel" onClick={onCancel} />
        <Button text="Apply" intent="primary" disabled={Boolean(blocked)} onClick={onApply} />
      </div>
    </div>
  );
}
