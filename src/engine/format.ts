import { type Locale } from '../contracts/common';
import { type Field, type FieldFormat } from '../contracts/datasets';

/** What a value that is missing or not a number shows (spec 3 §5). */
export const NOT_AVAILABLE = 'N/A';
/** Changes smaller than this (as a fraction) are neutral (spec 2 §9). */
export const NEUTRAL_CHANGE = 0.005;

export interface FormatOptions {
  /** Short numbers for cards and axes: no fraction digits, compact notation (12k). @default false */
  compact?: boolean;
  /**
   * The currency of money values; by default the workspace locale's. Targets pass `TARGET_CURRENCY`, as
   * spec 2 keeps the euro sign for them whatever the locale. @default localeCurrency[locale]
   */
  currency?: Currency;
}

export type Currency = 'USD' | 'GBP' | 'EUR';

/** A workspace's money is in its locale's currency: dollars, pounds or euros (spec 3 "Locales and number formats"). */
export const localeCurrency: Record<Locale, Currency> = { en_US: 'USD', en_GB: 'GBP', nl_NL: 'EUR' };

/** Targets show the euro sign in every locale (spec 2 §9 "Defaults and targets"). */
export const TARGET_CURRENCY: Currency = 'EUR';

const intlLocale: Record<Locale, string> = { en_US: 'en-US', en_GB: 'en-GB', nl_NL: 'nl-NL' };

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: Locale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}:${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale[locale], options);
    numberFormats.set(key, format);
  }
  return format;
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

function formatNumber(value: number, locale: Locale, fractionDigits: number, compact: boolean): string {
  return numberFormat(locale, {
    maximumFractionDigits: compact ? 0 : fractionDigits,
    ...(compact ? { notation: 'compact' } : {}),
  }).format(value);
}

/** Seconds as hours, minutes and seconds: '1h 2m 3s', '4m 5s', '0s'. */
function formatDuration(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  const total = Math.round(Math.abs(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const parts = [hours ? `${hours}h` : '', hours || minutes ? `${minutes}m` : '', `${rest}s`].filter(Boolean);
  return sign + parts.join(' ');
}

/** A day as the locale writes it: M/d/yyyy in en_US, d/M/yyyy otherwise (spec 3 §3). */
function formatDate(value: unknown, locale: Locale): string | null {
  let year: number, month: number, day: number;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    [year, month, day] = value.slice(0, 10).split('-').map(Number);
  } else if (value instanceof Date || typeof value === 'number') {
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) return null;
    [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
  } else {
    return null;
  }
  return locale === 'en_US' ? `${month}/${day}/${year}` : `${day}/${month}/${year}`;
}

function formatWeekday(value: number, locale: Locale): string | null {
  if (!Number.isInteger(value) || value < 0 || value > 6) return null;
  // 2023-01-01 was a Sunday: weekday 0, as the data's 0–6 count.
  return new Intl.DateTimeFormat(intlLocale[locale], { weekday: 'long', timeZone: 'UTC' }).format(
    Date.UTC(2023, 0, 1 + value),
  );
}

function formatMonth(value: number, locale: Locale): string | null {
  if (!Number.isInteger(value) || value < 1 || value > 12) return null;
  return new Intl.DateTimeFormat(intlLocale[locale], { month: 'long', timeZone: 'UTC' }).format(
    Date.UTC(2023, value - 1, 1),
  );
}

/** One per locale: making one took about 30 µs, which an export of 10^5 rows paid for every row's country. */
const regionNames = new Map<Locale, Intl.DisplayNames>();

function formatCountry(value: string, locale: Locale): string {
  const code = value.trim().toUpperCase();
  // UK is accepted for Great Britain in the data (DATA-CATALOGUE); other codes are shown as they are.
  const region = code === 'UK' ? 'GB' : code;
  if (!/^[A-Z]{2}$/.test(region)) return value;
  try {
    let names = regionNames.get(locale);
    if (!names) {
      names = new Intl.DisplayNames(intlLocale[locale], { type: 'region' });
      regionNames.set(locale, names);
    }
    return names.of(region) ?? value;
  } catch {
    return value;
  }
}

function formatBoolean(value: unknown): string | null {
  if (value === true || value === 1 || value === 'true' || value === '1') return 'Yes';
  if (value === false || value === 0 || value === 'false' || value === '0') return 'No';
  return null;
}

/**
 * A value as a widget shows it, by its field's format in the workspace's locale (spec 3 §3, §5): numbers
 * with up to 3 fraction digits (none in compact mode), percentages ×100 with 2, money in the locale's currency
 * ($, £ or €) unless `currency` says otherwise, durations in h m s, and 'N/A' for anything missing or not a number.
 */
export function formatValue(
  value: unknown,
  format: FieldFormat,
  locale: Locale,
  { compact = false, currency = localeCurrency[locale] }: FormatOptions = {},
): string {
  if (value === null || value === undefined) return NOT_AVAILABLE;
  switch (format) {
    case 'string':
    case 'url':
      return String(value);
    case 'date':
      return formatDate(value, locale) ?? NOT_AVAILABLE;
    case 'boolean':
      return formatBoolean(value) ?? NOT_AVAILABLE;
    case 'country':
      return formatCountry(String(value), locale);
  }
  const number = toNumber(value);
  if (number === null) return NOT_AVAILABLE;
  switch (format) {
    case 'number':
      return formatNumber(number, locale, 3, compact);
    case 'number_rounded':
      return formatNumber(Math.round(number), locale, 0, compact);
    case 'number_text':
      return String(number);
    case 'percent':
      return numberFormat(locale, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
        number,
      );
    case 'currency':
    case 'currency_rounded': {
      const digits = compact || format === 'currency_rounded' ? 0 : 2;
      return numberFormat(locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
        ...(compact ? { notation: 'compact' } : {}),
      }).format(number);
    }
    case 'duration':
      return formatDuration(number);
    case 'weekday':
      return formatWeekday(number, locale) ?? NOT_AVAILABLE;
    case 'month':
      return formatMonth(number, locale) ?? NOT_AVAILABLE;
  }
}

/** The locale's decimal and thousands separators: '.,' in English, ',.' in Dutch (for chart axes). */
export function numberSeparators(locale: Locale): string {
  const parts = numberFormat(locale, {}).formatToParts(12345.6);
  const decimal = parts.find((part) => part.type === 'decimal')?.value ?? '.';
  const group = parts.find((part) => part.type === 'group')?.value ?? ',';
  return decimal + group;
}

/** A field's value: `formatValue` by the field's format, as plain text when the field is unknown. */
export function formatField(value: unknown, field: Field | undefined, locale: Locale, options?: FormatOptions) {
  return formatValue(value, field?.format ?? 'string', locale, options);
}

/** The relative change from `previous` to `current`; null when there is nothing to compare with. */
export function relativeChange(current: unknown, previous: unknown): number | null {
  const now = toNumber(current);
  const before = toNumber(previous);
  if (now === null || before === null || before === 0) return null;
  return (now - before) / Math.abs(before);
}

/** A change as a signed percentage: '+12.34%', '-0.50%', 'N/A'. */
export function formatChange(change: number | null, locale: Locale): string {
  if (change === null || !Number.isFinite(change)) return NOT_AVAILABLE;
  return numberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'exceptZero',
  }).format(change);
}

export type ChangeTone = 'positive' | 'negative' | 'neutral';

/**
 * Whether a change is good news: up is good, except for negative measures (bounces, unsubscribes)
 * where a lower value is better; changes under 0.005 are neutral (spec 2 §9).
 */
export function changeTone(change: number | null, field?: Field): ChangeTone {
  if (change === null || !Number.isFinite(change) || Math.abs(change) < NEUTRAL_CHANGE) return 'neutral';
  const up = change > 0;
  const lowerIsBetter = field?.features.includes('negative_measure') ?? false;
  return up !== lowerIsBetter ? 'positive' : 'negative';
}
