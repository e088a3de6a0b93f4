import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/** The app is served from the root of its origin, so mailed links are that origin plus a path. */
function isBareOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !url.username &&
      !url.password
    );
  } catch {
    return false;
  }
}

/**
 * What one account can create (server/services/limits.ts), so that a script or a hostile member cannot fill the
 * database: far above what a person does by hand.
 */
export const DEFAULT_WORKSPACES_PER_DAY = 10;
export const DEFAULT_REPORTS_PER_WORKSPACE = 1000;
export const DEFAULT_TARGETS_PER_WORKSPACE = 1000;
export const DEFAULT_UPLOADS_PER_DAY = 50;

/** Every setting the server reads from the environment, with its default. The README's table mirrors this. */
const envSchema = z.object({
  // Unset means production: only `npm run dev` and the tests say otherwise, so a forgotten variable never
  // turns on development-only routes.
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().min(1).default('./var'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PUBLIC_URL: z
    .string()
    .refine(
      isBareOrigin,
      'PUBLIC_URL must be an http:// or https:// address without a path, e.g. https://openrate.example.com',
    )
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value, context) => {
      const hosts: string[] = [];
      for (const entry of value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)) {
        const host = normalizeHost(entry);
        if (host === null) context.addIssue({ code: 'custom', message: `"${entry}" is not a host[:port]` });
        else hosts.push(host);
      }
      return hosts;
    }),
  STATIC_DIR: z.string().min(1).default('./dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanFromEnv,
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Openrate <no-reply@openrate.app>'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
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
  RATE_LIMIT_GLOBAL_PER_EMAIL: z.coerce.number().int().min(1).default(50),
  RATE_LIMIT_MAX_BACKOFF: z.coerce.number().int().min(1).default(60),
  POW_SECRET: z.string().min(16).optional(),
  POW_MAX_NUMBER: z.coerce.number().int().min(1).max(10_000_000).default(50_000),
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((value) => value === 'true' || value === '1'),
  // 32 random bytes (64 hex digits) encrypting secrets at rest; see server/services/secrets.ts for the default.
  SECRETS_KEY: z.string().optional(),
  // host[:port] values outbound calls may reach although private (a local provider simulator); never user input.
  OUTBOUND_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
  // Integration providers' API roots, configurable to point at the local simulator (server/integrations/simulator).
  KLAVIYO_API_URL: z.url().default('https://a.klaviyo.com'),
  ITERABLE_API_URL: z.url().default('https://api.iterable.com'),
  ITERABLE_EU_API_URL: z.url().default('https://api.eu.iterable.com'),
  COPERNICA_API_URL: z.url().default('https://api.copernica.com'),
  DEPLOYTEQ_API_URL: z.url().default('https://api.deployteq.net'),
  // The MailPro account's own host is typed by the admin and takes the place of {hostname}.
  MAILPRO_API_URL: z.string().includes('{hostname}').default('https://{hostname}'),
  MAILPLUS_API_URL: z.url().default('https://restapi.mailplus.nl'),
  // Google Analytics: the Admin API, Google's token endpoint, and the product's service account (its JSON key) that
  // workspaces grant read access to their properties.
  GOOGLE_ANALYTICS_ADMIN_API_URL: z.url().default('https://analyticsadmin.googleapis.com'),
  GOOGLE_OAUTH_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_ANALYTICS_SERVICE_ACCOUNT: z.string().optional(),
  LIMIT_WORKSPACES_PER_DAY: z.coerce.number().int().min(1).default(DEFAULT_WORKSPACES_PER_DAY),
  LIMIT_REPORTS_PER_WORKSPACE: z.coerce.number().int().min(1).default(DEFAULT_REPORTS_PER_WORKSPACE),
  LIMIT_UPLOADS_PER_DAY: z.coerce.number().int().min(1).default(DEFAULT_UPLOADS_PER_DAY),
  LIMIT_TARGETS_PER_WORKSPACE: z.coerce.number().int().min(1).default(DEFAULT_TARGETS_PER_WORKSPACE),
  // The hour (UTC) from which the previous day's data is complete and alert rules are evaluated for it.
  ALERTS_EVALUATION_HOUR: z.coerce.number().int().min(0).max(23).default(6),
});

export type Config = z.infer<typeof envSchema> & {
  /** DATA_DIR resolved against the working directory. */
  dataDir: string;
  /** STATIC_DIR resolved against the working directory. */
  staticDir: string;
  /** The origin every mailed link starts with: PUBLIC_URL, or the local default outside production. */
  publicUrl: string;
  /** Normalized `host[:port]` values a request's Host may name (see allowedHostsFor). */
  allowedHosts: string[];
};

/**
 * A Host header or ALLOWED_HOSTS entry as compared: lower case, without the default ports 80 and 443
 * (browsers leave them out, proxies sometimes write them). Null when it is not a bare host[:port].
 */
export function normalizeHost(value: string): string | null {
  if (!value || /[\s/?#@\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return null;
  }
  return url.host.replace(/:(80|443)$/, '');
}

const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The address a server started without PUBLIC_URL is reached on: its own http://HOST:PORT (a wildcard
 * HOST is reached on 127.0.0.1). Undefined for port 0, whose number is known only once listening.
 */
export function localPublicUrl(env: { HOST?: string; PORT?: string }): string | undefined {
  const parsed = envSchema.pick({ HOST: true, PORT: true }).safeParse(env);
  if (!parsed.success || parsed.data.PORT === 0) return undefined;
  const host = WILDCARD_HOSTS.has(parsed.data.HOST) ? '127.0.0.1' : parsed.data.HOST;
  return new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${parsed.data.PORT}`)
    .origin;
}

/**
 * The hosts requests may name (DNS rebinding defence): PUBLIC_URL's host and ALLOWED_HOSTS; when
 * PUBLIC_URL is on this machine (the local default), also localhost, 127.0.0.1 and [::1] on its port.
 */
function allowedHostsFor(publicUrl: string, extra: string[]): string[] {
  const url = new URL(publicUrl);
  const hosts = new Set([normalizeHost(url.host) ?? url.host, ...extra]);
  if (LOOPBACK_HOSTNAMES.includes(url.hostname)) {
    for (const hostname of LOOPBACK_HOSTNAMES) {
      hosts.add(normalizeHost(url.port ? `${hostname}:${url.port}` : hostname) ?? hostname);
    }
  }
  return [...hosts];
}

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
  // Links in e-mails never come from the request's Host: in production the operator names the address.
  const publicUrl =
    merged.PUBLIC_URL ??
    (merged.NODE_ENV === 'production' ? undefined : localPublicUrl({ HOST: merged.HOST, PORT: String(merged.PORT) }));
  if (!publicUrl) {
    throw new ConfigError(
      'Invalid configuration: PUBLIC_URL: required in production, the address users reach Openrate on ' +
        '(e.g. https://openrate.example.com); links in e-mails start with it',
    );
  }
  return {
    ...merged,
    dataDir: path.resolve(overrides.dataDir ?? merged.DATA_DIR),
    staticDir: path.resolve(overrides.staticDir ?? merged.STATIC_DIR),
    publicUrl: new URL(publicUrl).origin,
    allowedHosts: allowedHostsFor(publicUrl, merged.ALLOWED_HOSTS),
  };
}
