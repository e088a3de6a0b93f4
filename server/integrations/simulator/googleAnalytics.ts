import { createVerify, generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { GA_SCOPE } from '../googleAnalytics';

/** Google Analytics accounts and their GA4 properties that the simulator's service account was granted. */
export const SIMULATOR_GA_ACCOUNTS = [
  {
    account: 'accounts/1001',
    displayName: 'Acme Shop GA',
    propertySummaries: [
      { property: 'properties/250001', displayName: 'Acme Shop NL', propertyType: 'PROPERTY_TYPE_ORDINARY' },
      { property: 'properties/250002', displayName: 'Acme Shop UK', propertyType: 'PROPERTY_TYPE_ORDINARY' },
    ],
  },
  {
    account: 'accounts/1002',
    displayName: 'Acme Brands',
    propertySummaries: [
      { property: 'properties/260001', displayName: 'Acme Outlet', propertyType: 'PROPERTY_TYPE_ORDINARY' },
    ],
  },
];
const GA_TOKENS = { granted: 'simulator-ga-token', empty: 'simulator-ga-token-no-access' } as const;

const serviceAccounts = new Map<
  keyof typeof GA_TOKENS,
  { client_email: string; private_key: string; public: string }
>();
/**
 * A service account key the simulator's token endpoint accepts: `granted` was given the accounts above, `empty`
 * none. Generated once per process (RSA, as Google issues them), so no key is committed anywhere.
 */
export function simulatorServiceAccount(kind: keyof typeof GA_TOKENS): { client_email: string; private_key: string } {
  let account = serviceAccounts.get(kind);
  if (!account) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    account = {
      client_email: `openrate-${kind}@openrate-simulator.iam.gserviceaccount.com`,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      public: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    serviceAccounts.set(kind, account);
  }
  return { client_email: account.client_email, private_key: account.private_key };
}

/** Google's token endpoint for the JWT bearer grant: the assertion must be signed by a known service account. */
function verifiedGaToken(form: Record<string, string> | undefined, audience: string): string | null {
  if (form?.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !form.assertion) return null;
  const [header, claims, signature] = form.assertion.split('.');
  if (!header || !claims || !signature) return null;
  let payload: { iss?: string; scope?: string; aud?: string; exp?: number };
  try {
    payload = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as typeof payload;
  } catch {
    return null;
  }
  for (const kind of Object.keys(GA_TOKENS) as (keyof typeof GA_TOKENS)[]) {
    simulatorServiceAccount(kind);
    const account = serviceAccounts.get(kind)!;
    if (payload.iss !== account.client_email) continue;
    const signed = createVerify('RSA-SHA256')
      .update(`${header}.${claims}`)
      .verify(account.public, Buffer.from(signature, 'base64url'));
    const fresh = typeof payload.exp === 'number' && payload.exp * 1000 > Date.now();
    return signed && fresh && payload.scope === GA_SCOPE && payload.aud === audience ? GA_TOKENS[kind] : null;
  }
  return null;
}

/** Google's OAuth token endpoint and the Admin API's accountSummaries, as the adapter calls them. */
export function googleAnalyticsRoutes(app: FastifyInstance) {
  const bearer = (authorization: string | undefined) => authorization?.replace(/^Bearer /, '');
  app.post('/google/token', async (request, reply) => {
    const audience = `${request.protocol}://${request.headers.host}/google/token`;
    const token = verifiedGaToken(request.body as Record<string, string> | undefined, audience);
    if (!token) return reply.code(400).send({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    return { access_token: token, token_type: 'Bearer', expires_in: 3600 };
  });
  // One account per page, as the Admin API may answer fewer than pageSize: the adapter must follow nextPageToken.
  app.get<{ Querystring: { pageToken?: string } }>(
    '/google-analytics/v1beta/accountSummaries',
    async (request, reply) => {
      const token = bearer(request.headers.authorization);
      if (token === GA_TOKENS.empty) return {};
      if (token !== GA_TOKENS.granted) return reply.code(401).send({ error: { code: 401, status: 'UNAUTHENTICATED' } });
      const index = Number(request.query.pageToken ?? 0);
      const summary = SIMULATOR_GA_ACCOUNTS[index];
      if (!summary) return reply.code(400).send({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
      const next = index + 1 < SIMULATOR_GA_ACCOUNTS.length ? { nextPageToken: String(index + 1) } : {};
      return { accountSummaries: [{ name: `accountSummaries/${summary.account.slice(9)}`, ...summary }], ...next };
    },
  );
}
