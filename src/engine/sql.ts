/**
 * The only ways a value reaches SQL text: identifiers are checked by the caller against the dataset
 * schema and then quoted here; literals are escaped here (numbers and dates validated first).
 */

/** An error in a query description (unknown field, bad value): shown to developers, never half-run. */
export class QueryBuildError extends Error {
  override name = 'QueryBuildError';
}

/** Double-quotes an identifier, doubling embedded quotes, so no name can end the identifier early. */
export function ident(name: string): string {
  if (name.length === 0 || name.includes('\0')) throw new QueryBuildError(`Invalid identifier "${name}"`);
  return `"${name.replaceAll('"', '""')}"`;
}

/** A string literal: DuckDB's standard strings know no backslash escapes, so doubling quotes is complete. */
export function str(value: string): string {
  if (value.includes('\0')) throw new QueryBuildError('Invalid text value');
  return `'${value.replaceAll("'", "''")}'`;
}

/** A finite number literal from a filter input ("1,5" is read as 1.5, as the metric inputs store it). */
export function num(value: string | number): string {
  const parsed = typeof value === 'number' ? value : Number(value.trim().replace(',', '.'));
  if (typeof value === 'string' && value.trim() === '') throw new QueryBuildError('Invalid number ""');
  if (!Number.isFinite(parsed)) throw new QueryBuildError(`Invalid number "${String(value)}"`);
  return String(parsed);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Checks a yyyy-MM-dd calendar date (rejecting 2024-02-30) and returns it unchanged. */
export function isoDate(value: string): string {
  const match = ISO_DATE.exec(value.trim());
  if (!match) throw new QueryBuildError(`Invalid date "${value}"`);
  const [, y, m, d] = match.map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    throw new QueryBuildError(`Invalid date "${value}"`);
  }
  return value.trim();
}

/** A DATE literal from a yyyy-MM-dd string. */
export function dateLit(value: string): string {
  return `DATE '${isoDate(value)}'`;
}
