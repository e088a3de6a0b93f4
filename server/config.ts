import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/**
 * What one account can create (server/services/limits.ts), so that a script or a hostile member cannot fill the
 * database: far above what a person does by hand.
 */
export const DEFAULT_WORKSPACES_PER_DAY = 10;
export const DEFAULT_REPORTS_PER_WORKSPACE = 1000;
export const DEFAULT_UPLOADS_PER_DAY = 50;

/** Every setting the server reads from the environment, with its default. The README's table mirrors this. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().min(1).default('./var'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PUBLIC_URL: z.string().url().optional(),
  STATIC_DIR: z.string().min(1).default('./dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanFromEnv,
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Openrate <no-reply@openrate.app>'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  STAFF_EMAIL_DOMAIN: z.string().min(1).default('openrate.app'),
  SESSION_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .default(30 * 24 * 3600),
  RATE_LIMIT_WINDOW: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  POW_SECRET: z.string().min(16).optional(),
  POW_MAX_NUMBER: z.coerce.number().int().min(1).max(10_000_000).default(50_000),
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((value) => value === 'true' || value === '1'),
  LIMIT_WORKSPACES_PER_DAY: z.coerce.number().int().min(1).default(DEFAULT_WORKSPACES_PER_DAY),
  LIMIT_REPORTS_PER_WORKSPACE: z.coerce.number().int().min(1).default(DEFAULT_REPORTS_PER_WORKSPACE),
  LIMIT_UPLOADS_PER_DAY: z.coerce.number().int().min(1).default(DEFAULT_UPLOADS_PER_DAY),
});

export type Config = z.infer<typeof envSchema> & {
  /** DATA_DIR resolved against the working directory. */
  dataDir: string;
  /** STATIC_DIR resolved against the working directory. */
  staticDir: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the configuration; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const merged = { ...parsed.data, ...overrides };
  return {
    ...merged,
    dataDir: path.resolve(overrides.dataDir ?? merged.DATA_DIR),
    staticDir: path.resolve(overrides.staticDir ?? merged.STATIC_DIR),
  };
}
