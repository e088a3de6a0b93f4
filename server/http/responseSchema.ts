import type { FastifySerializerCompiler } from 'fastify';
import { type z } from 'zod';
import { describeIssues } from './zod';

/** A route answered a shape its response schema does not allow: a bug in the route, never the client's fault. */
export class ResponseContractError extends Error {
  override name = 'ResponseContractError';
  constructor(
    readonly route: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(`${route} answered outside its contract: ${describeIssues('response', issues)}`);
  }
}

/**
 * Checks every answer a route declares in `schema.response` against that zod schema before it is sent, and sends
 * what the schema keeps: a field the contract does not name never leaves the server. A mismatch throws, so the
 * answer becomes a 500 and its test fails loudly instead of a client reading a shape nobody agreed on.
 */
export const zodSerializerCompiler: FastifySerializerCompiler<z.ZodType> =
  ({ schema, method, url, httpStatus }) =>
  (data: unknown) => {
    // Compared as the client will read it: dates and other values in their JSON form.
    const json: unknown = JSON.parse(JSON.stringify(data) ?? 'null');
    const result = schema.safeParse(json);
    if (!result.success) throw new ResponseContractError(`${method} ${url} ${httpStatus}`, result.error.issues);
    return JSON.stringify(result.data);
  };
