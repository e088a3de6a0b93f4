import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { MAILPLUS_SERVICE } from '../mailplus';
import { parseOauth1Header, verifyOauth1 } from '../oauth1';
import { googleAnalyticsRoutes, simulatorServiceAccount } from './googleAnalytics';

export { SIMULATOR_GA_ACCOUNTS, simulatorServiceAccount } from './googleAnalytics';

/**
 * A local stand-in for the providers' APIs: the subset of each one the adapters call, answering as the providers
 * document it, with one valid credential per provider (SIMULATOR_CREDENTIALS) and a refusal for any other.
 * Tests and the demo (INTEGRATIONS_SIMULATOR=true) point the *_API_URL settings at it.
 */
export const SIMULATOR_CREDENTIALS = {
  klaviyoApiKey: 'pk_simulator_valid',
  iterableApiKey: 'iterable-simulator-valid',
  copernicaToken: 'copernica-simulator-valid',
  mailplusConsumerKey: 'mailplus-simulator-key',
  mailplusConsumerSecret: 'mailplus-simulator-secret',
  clientId: 'simulator-client',
  clientSecret: 'simulator-secret',
} as const;
const ISSUED_TOKEN = 'simulator-access-token';

/** Klaviyo campaigns with their email statistics, as the import reads them. */
export const SIMULATOR_KLAVIYO_CAMPAIGNS = [
  {
    id: '01SIMCAMP0001',
    name: 'Black Friday preview',
    sendTime: '2026-11-20T09:00:00Z',
    recipients: 12000,
    opens: 5400,
    clicks: 960,
    conversions: 84,
    conversionValue: 6720,
  },
  {
    id: '01SIMCAMP0002',
    name: 'Cyber week',
    sendTime: '2026-11-23T09:00:00Z',
    recipients: 15000,
    opens: 6150,
    clicks: 1200,
    conversions: 131,
    conversionValue: 10480,
  },
];

const COPERNICA_DATABASES = [
  { ID: 1, name: 'Newsletter subscribers' },
  { ID: 2, name: 'Customers' },
];
const COPERNICA_VIEWS: Record<string, { ID: number; name: string; 'has-children': boolean }[]> = {
  'database:1': [
    { ID: 11, name: 'Active subscribers', 'has-children': true },
    { ID: 12, name: 'Unsubscribed', 'has-children': false },
  ],
  'database:2': [{ ID: 21, name: 'Repeat buyers', 'has-children': false }],
  'view:11': [
    { ID: 111, name: 'Netherlands', 'has-children': false },
    { ID: 112, name: 'Belgium', 'has-children': false },
  ],
};

const bearer = (request: FastifyRequest) => request.headers.authorization?.replace(/^Bearer /, '');
const deny = (reply: FastifyReply, status = 401) => reply.code(status).send({ error: 'invalid credentials' });
const page = <T>(data: T[]) => ({ start: 0, limit: 1000, count: data.length, total: data.length, data });

function klaviyoRoutes(app: FastifyInstance) {
  const valid = (request: FastifyRequest) =>
    request.headers.authorization === `Klaviyo-API-Key ${SIMULATOR_CREDENTIALS.klaviyoApiKey}` &&
    typeof request.headers.revision === 'string';
  app.get('/klaviyo/api/accounts', async (request, reply) => {
    if (!valid(request)) return deny(reply);
    return {
      data: [
        { type: 'account', id: 'SimAcc', attributes: { contact_information: { organization_name: 'Acme Shop' } } },
      ],
    };
  });
  app.get('/klaviyo/api/campaigns', async (request, reply) => {
    if (!valid(request)) return deny(reply);
    const data = SIMULATOR_KLAVIYO_CAMPAIGNS.map((campaign) => ({
      type: 'campaign',
      id: campaign.id,
      attributes: { name: campaign.name, status: 'Sent', send_time: campaign.sendTime },
    }));
    return { data, links: { next: null } };
  });
  app.get('/klaviyo/api/metrics', async (request, reply) => {
    if (!valid(request)) return deny(reply);
    return { data: [{ type: 'metric', id: 'SimPlacedOrder', attributes: { name: 'Placed Order' } }] };
  });
  app.post('/klaviyo/api/campaign-values-reports', async (request, reply) => {
    if (!valid(request)) return deny(reply);
    const attributes = (request.body as { data?: { attributes?: Record<string, unknown> } } | undefined)?.data
      ?.attributes;
    if (!attributes?.conversion_metric_id || !Array.isArray(attributes.statistics)) {
      return reply.code(400).send({ errors: [{ code: 'invalid', detail: 'conversion_metric_id is required' }] });
    }
    const results = SIMULATOR_KLAVIYO_CAMPAIGNS.map((campaign) => ({
      groupings: { campaign_id: campaign.id, send_channel: 'email' },
      statistics: {
        recipients: campaign.recipients,
        delivered: campaign.recipients,
        opens_unique: campaign.opens,
        opens: Math.round(campaign.opens * 1.4),
        clicks_unique: campaign.clicks,
        clicks: Math.round(campaign.clicks * 1.3),
        conversions: campaign.conversions,
        conversion_value: campaign.conversionValue,
      },
    }));
    return { data: { type: 'campaign-values-report', attributes: { results } } };
  });
}

/**
 * Mail+ checks each request's OAuth 1.0a signature: the simulator's consumer secret over the method and the URL the
 * request was sent to, a timestamp within five minutes, and a nonce not seen before.
 */
function mailplusRoutes(app: FastifyInstance) {
  const nonces = new Set<string>();
  app.get(`/mailplus${MAILPLUS_SERVICE}/campaign/list`, async (request, reply) => {
    const { authorization } = request.headers;
    const url = `${request.protocol}://${request.headers.host}${request.url}`;
    const oauth = parseOauth1Header(authorization);
    const nonce = oauth?.get('oauth_nonce') ?? '';
    const fresh = Math.abs(Date.now() / 1000 - Number(oauth?.get('oauth_timestamp'))) < 300;
    const valid =
      oauth?.get('oauth_consumer_key') === SIMULATOR_CREDENTIALS.mailplusConsumerKey &&
      fresh &&
      !nonces.has(nonce) &&
      verifyOauth1('GET', url, authorization, SIMULATOR_CREDENTIALS.mailplusConsumerSecret);
    if (!valid) return reply.code(401).send({ errorType: 'UNAUTHORIZED', message: 'Invalid signature' });
    nonces.add(nonce);
    return [
      { encryptedId: 'mp-campaign-1', name: 'Welcome journey', triggers: [] },
      { encryptedId: 'mp-campaign-2', name: 'Abandoned cart', triggers: [] },
    ];
  });
}

function oauthRoutes(app: FastifyInstance, prefix: string) {
  app.post(`${prefix}`, async (request, reply) => {
    const form = request.body as Record<string, string> | undefined;
    const ok =
      form?.grant_type === 'client_credentials' &&
      form.client_id === SIMULATOR_CREDENTIALS.clientId &&
      form.client_secret === SIMULATOR_CREDENTIALS.clientSecret;
    if (!ok)
      return reply.code(401).send({ error: 'invalid_client', error_description: 'Client authentication failed' });
    return { access_token: ISSUED_TOKEN, token_type: 'Bearer', expires_in: 3600 };
  });
}

function copernicaRoutes(app: FastifyInstance) {
  const valid = (request: FastifyRequest) => bearer(request) === SIMULATOR_CREDENTIALS.copernicaToken;
  app.get('/copernica/v4/identity', async (request, reply) =>
    valid(request) ? { id: 4711, name: 'Acme Mailings', description: '', company: 'Acme' } : deny(reply),
  );
  app.get('/copernica/v4/databases', async (request, reply) =>
    valid(request) ? page(COPERNICA_DATABASES) : deny(reply),
  );
  app.get<{ Params: { id: string } }>('/copernica/v4/database/:id/views', async (request, reply) =>
    valid(request) ? page(COPERNICA_VIEWS[`database:${request.params.id}`] ?? []) : deny(reply),
  );
  app.get<{ Params: { id: string } }>('/copernica/v4/view/:id/views', async (request, reply) =>
    valid(request) ? page(COPERNICA_VIEWS[`view:${request.params.id}`] ?? []) : deny(reply),
  );
}

/** Builds the simulator; `listen` it on a free loopback port and add that host to OUTBOUND_ALLOWED_HOSTS. */
export async function buildProviderSimulator(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/vnd.api+json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (error) {
      done(error as Error);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  klaviyoRoutes(app);
  copernicaRoutes(app);
  googleAnalyticsRoutes(app);
  mailplusRoutes(app);
  app.get('/iterable/api/lists', async (request, reply) =>
    request.headers['api-key'] === SIMULATOR_CREDENTIALS.iterableApiKey
      ? { lists: [{ id: 1, name: 'Newsletter', listType: 'Standard' }] }
      : deny(reply),
  );
  oauthRoutes(app, '/deployteq/oauth/token');
  app.get('/deployteq/brands', async (request, reply) =>
    bearer(request) === ISSUED_TOKEN ? { data: [{ id: 7, name: 'Acme Fashion' }] } : deny(reply),
  );
  // MailPro lives on each account's own host; the simulator takes that hostname as the first path segment.
  oauthRoutes(app, '/mailpro/:hostname/admin/oauth2/token.php');
  app.get('/mailpro/:hostname/admin/api/index.php/rest/campaign', async (request, reply) =>
    bearer(request) === ISSUED_TOKEN ? [{ id: 3, name: 'Weekly newsletter' }] : deny(reply),
  );
  return app;
}

/** The *_API_URL settings that send every adapter to a simulator listening at `origin`. */
export function simulatorUrls(origin: string) {
  return {
    KLAVIYO_API_URL: `${origin}/klaviyo`,
    ITERABLE_API_URL: `${origin}/iterable`,
    ITERABLE_EU_API_URL: `${origin}/iterable`,
    COPERNICA_API_URL: `${origin}/copernica`,
    DEPLOYTEQ_API_URL: `${origin}/deployteq`,
    MAILPRO_API_URL: `${origin}/mailpro/{hostname}`,
    MAILPLUS_API_URL: `${origin}/mailplus`,
    GOOGLE_ANALYTICS_ADMIN_API_URL: `${origin}/google-analytics`,
    GOOGLE_OAUTH_TOKEN_URL: `${origin}/google/token`,
    GOOGLE_ANALYTICS_SERVICE_ACCOUNT: JSON.stringify(simulatorServiceAccount('granted')),
    OUTBOUND_ALLOWED_HOSTS: [new URL(origin).host],
  };
}

/**
 * With INTEGRATIONS_SIMULATOR=true (the demo, the browser tests) the server starts the simulator on a loopback port
 * and points every provider setting at it, before the configuration is read.
 */
export async function startSimulatorFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  if (env.INTEGRATIONS_SIMULATOR !== 'true' && env.INTEGRATIONS_SIMULATOR !== '1') return null;
  const simulator = await buildProviderSimulator();
  const origin = await simulator.listen({ port: 0, host: '127.0.0.1' });
  const { OUTBOUND_ALLOWED_HOSTS: hosts, ...urls } = simulatorUrls(origin);
  Object.assign(env, urls);
  env.OUTBOUND_ALLOWED_HOSTS = [env.OUTBOUND_ALLOWED_HOSTS, ...hosts].filter(Boolean).join(',');
  return origin;
}
