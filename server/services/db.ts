import type { Database } from '../db/client';

/** A transaction handle; services take either it or the database so callers can group changes. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;
