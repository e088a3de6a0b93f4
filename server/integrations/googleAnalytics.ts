import { createSign } from 'node:crypto';
import { z } from 'zod';
import { INTEGRATION_ERRORS } from '../../src/contracts/integrations';
import { callProvider, joinUrl, ProviderError, type ProviderContext } from './provider';

/** Read-only access to Google Analytics configuration (the Admin API's accountSummaries). */
export const GA_SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Pages of accountSummaries read at most (200 accounts each): far beyond any agency's accounts. */
const MAX_PAGES = 10;

const serviceAccountSchema = z.object({ client_email: z.string().min(1), private_key: z.string().min(1) });
type ServiceAccount = z.infer<typeof serviceAccountSchema>;
const tokenSchema = z.object({ access_token: z.string().min(1) });
const summariesSchema = z.object({
  accountSummaries: z
    .array(
      z.object({
        account: z.string(),
        displayName: z.string(),
        propertySummaries: z.array(z.object({ property: z.string(), displayName: z.string() })).default([]),
      }),
    )
    .default([]),
  nextPageToken: z.string().optional(),
});

/** A GA4 property the service account may read, with its account's name. */
export interface GaProperty {
  id: string;
  name: string;
  accountName: string;
}

const fail = () => new ProviderError(INTEGRATION_ERRORS.googleAnalytics);

/** The product's service account from GOOGLE_ANALYTICS_SERVICE_ACCOUNT (its JSON key), or a refusal without one. */
function serviceAccount(context: ProviderContext): ServiceAccount {
  const raw = context.config.GOOGLE_ANALYTICS_SERVICE_ACCOUNT;
  if (!raw) throw fail();
  try {
    return serviceAccountSchema.parse(JSON.parse(raw));
  } catch {
    throw fail();
  }
}

/** The address admins grant read access to in Google Analytics; null when no service account is configured. */
export function serviceAccountEmail(context: ProviderContext): string | null {
  try {
    return serviceAccount(context).client_email;
  } catch {
    return null;
  }
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** The signed JWT a service account trades for an access token (RFC 7523; RS256 with the account's key). */
export function signedAssertion(account: ServiceAccount, audience: string, now = Date.now()): string {
  const issuedAt = Math.floor(now / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({ iss: account.client_email, scope: GA_SCOPE, aud: audience, iat: issuedAt, exp: issuedAt + 3600 }),
  );
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(account.private_key);
  return `${header}.${claims}.${base64url(signature)}`;
}

async function accessToken(context: ProviderContext): Promise<string> {
  const account = serviceAccount(context);
  const url = context.config.GOOGLE_OAUTH_TOKEN_URL;
  let assertion: string;
  try {
    assertion = signedAssertion(account, url);
  } catch {
    // A key that is not a private key: the same refusal, never the key in a message.
    throw fail();
  }
  const answer = await callProvider(context, url, INTEGRATION_ERRORS.googleAnalytics, {
    method: 'POST',
    form: { grant_type: JWT_BEARER, assertion },
  });
  const parsed = tokenSchema.safeParse(answer);
  if (!parsed.success) throw fail();
  return parsed.data.access_token;
}

/**
 * Every GA account and GA4 property the service account was granted: `GET /v1beta/accountSummaries`, page by
 * page. Answers the number of accounts too, so 'no account at all' and 'accounts without properties' differ.
 */
export async function accountSummaries(
  context: ProviderContext,
): Promise<{ accounts: number; properties: GaProperty[] }> {
  const token = await accessToken(context);
  const properties: GaProperty[] = [];
  let accounts = 0;
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const query = new URLSearchParams({ pageSize: '200', ...(pageToken ? { pageToken } : {}) });
    const url = joinUrl(context.config.GOOGLE_ANALYTICS_ADMIN_API_URL, `/v1beta/accountSummaries?${query}`);
    const answer = await callProvider(context, url, INTEGRATION_ERRORS.googleAnalytics, {
      headers: { authorization: `Bearer ${token}` },
    });
    const parsed = summariesSchema.safeParse(answer);
    if (!parsed.success) throw fail();
    for (const summary of parsed.data.accountSummaries) {
      accounts += 1;
      for (const property of summary.propertySummaries) {
        const id = property.property.replace(/^properties\//, '');
        properties.push({ id, name: property.displayName, accountName: summary.displayName });
      }
    }
    pageToken = parsed.data.nextPageToken || undefined;
    if (!pageToken) break;
  }
  return { accounts, properties };
}
