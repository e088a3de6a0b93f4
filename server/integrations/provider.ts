import type { IntegrationUnit } from '../../src/contracts/integrations';
import type { Config } from '../config';
import { badRequest } from '../http/errors';
import { OutboundError, safeFetch, type SafeResponse } from '../http/safeFetch';

/** Provider calls wait this long at most: the admin is waiting on the Connect button. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** The provider said no (bad credentials, no access) or could not be reached; `message` is the spec's wording. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

/** What an adapter needs: the configured API roots and the operator's allow-list (the simulator's host). */
export interface ProviderContext {
  config: Pick<
    Config,
    | 'KLAVIYO_API_URL'
    | 'ITERABLE_API_URL'
    | 'ITERABLE_EU_API_URL'
    | 'COPERNICA_API_URL'
    | 'DEPLOYTEQ_API_URL'
    | 'MAILPRO_API_URL'
    | 'MAILPLUS_API_URL'
    | 'GOOGLE_ANALYTICS_ADMIN_API_URL'
    | 'GOOGLE_OAUTH_TOKEN_URL'
    | 'GOOGLE_ANALYTICS_SERVICE_ACCOUNT'
    | 'OUTBOUND_ALLOWED_HOSTS'
  >;
}

/** What every adapter offers: check the credentials and list the units they give access to. */
export interface ProviderAdapter<Credentials> {
  listUnits(context: ProviderContext, credentials: Credentials): Promise<IntegrationUnit[]>;
}

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  /** True when the URL's host was typed by a user: the operator's allow-list then does not apply. */
  userHost?: boolean;
}

/**
 * One call to a provider through the SSRF-safe fetch. Any refusal, network failure or non-2xx answer becomes a
 * ProviderError with `failure`, the message the admin sees; the credentials never reach a log or an error text.
 */
export async function callProvider(
  context: ProviderContext,
  url: string,
  failure: string,
  request: ProviderRequest = {},
): Promise<unknown> {
  let response: SafeResponse;
  try {
    response = await safeFetch(url, {
      method: request.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(request.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(request.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body: request.form
        ? new URLSearchParams(request.form).toString()
        : request.json === undefined
          ? undefined
          : JSON.stringify(request.json),
      timeoutMs: PROVIDER_TIMEOUT_MS,
      allowedHosts: request.userHost ? [] : context.config.OUTBOUND_ALLOWED_HOSTS,
    });
  } catch (error) {
    if (error instanceof OutboundError) throw new ProviderError(failure);
    throw error;
  }
  if (response.status < 200 || response.status >= 300) throw new ProviderError(failure);
  try {
    return response.json();
  } catch {
    throw new ProviderError(failure);
  }
}

/** A URL under a configured API root, whatever its trailing slash. */
export const joinUrl = (root: string, path: string): string => `${root.replace(/\/+$/, '')}${path}`;

/** A provider's refusal is the admin's to fix (wrong key, wrong host): a 400 with the spec's message. */
export async function fromProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderError) throw badRequest(error.message);
    throw error;
  }
}
