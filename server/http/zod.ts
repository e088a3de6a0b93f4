import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { type z } from 'zod';

/** Lets route handlers see the output type of the zod schemas given for body, params and query. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** Raised by the validator; the error handler turns it into 400 {error}. */
export class RequestValidationError extends Error {
  override name = 'RequestValidationError';
  constructor(
    readonly part: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(describeIssues(part, issues));
  }
}

export function describeIssues(part: string, issues: z.core.$ZodIssue[]): string {
  const first = issues[0];
  if (!first) return `Invalid ${part}`;
  const where = first.path.length ? `${first.path.join('.')}: ` : '';
  return `Invalid ${part}: ${where}${first.message}`;
}

/** Every body, params and querystring schema is a zod schema; its parsed output replaces the raw input. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(httpPart ?? 'request', result.error.issues) };
  };
