import { type Column, eq, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';

/** A transaction handle; services take either it or the database so callers can group changes. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

/**
 * `column = value` when a value is given, else no condition (Drizzle's `and` and `where` skip it): how a list query
 * also reads its one row (after a create or an update), so a list and a single answer never differ.
 */
export function eqWhenGiven(column: Column, value: number | undefined): SQL | undefined {
  return value === undefined ? undefined : eq(column, value);
}
