import { z } from 'zod';
import { idFromPath, workspaceIdParamsSchema } from './common';
import { marketSchema } from './markets';

/** The 15 integration types of spec 1 section 3, with the name of the unit each one connects. */
export const INTEGRATION_TYPES = {
  braze: { label: 'Braze', unit: 'account', custom: true, isNew: false },
  copernica: { label: 'Copernica', unit: 'account', custom: false, isNew: false },
  deployteq: { label: 'Deployteq', unit: 'brand', custom: false, isNew: false },
  google_analytics: { label: 'Google Analytics', unit: 'view', custom: false, isNew: false },
  iterable: { label: 'Iterable', unit: 'account', custom: false, isNew: true },
  klaviyo: { label: 'Klaviyo', unit: 'account', custom: false, isNew: false },
  mailcampaigns: { label: 'MailCampaigns', unit: 'account', custom: true, isNew: false },
  maileon: { label: 'Maileon', unit: 'account', custom: true, isNew: true },
  mailkit: { label: 'Mailkit', unit: 'account', custom: true, isNew: true },
  marigold: { label: 'Marigold', unit: 'account', custom: true, isNew: false },
  salesforce: { label: 'Salesforce Marketing Cloud', unit: 'account', custom: false, isNew: false },
  smtpeter: { label: 'SMTPeter', unit: 'account', custom: true, isNew: false },
  webpower: { label: 'Spotler MailPro', unit: 'campaign', custom: false, isNew: false },
  mailplus: { label: 'Mail+', unit: 'campaign', custom: false, isNew: true },
  google_bigquery: { label: 'Google BigQuery', unit: 'dataset', custom: true, isNew: false },
} as const;
export type IntegrationType = keyof typeof INTEGRATION_TYPES;
export const integrationTypeSchema = z.enum(Object.keys(INTEGRATION_TYPES) as [IntegrationType, ...IntegrationType[]]);

/** The failure messages of spec 1 section 8, word for word. */
export const INTEGRATION_ERRORS = {
  enable: 'Failed to enable the integration',
  klaviyo: 'Failed to connect to your Klaviyo account, please check the API key.',
  copernica: 'Failed to enable the integration, please check your API token',
  copernicaDatabases: 'Failed to retrieve Copernica databases. Please check again later.',
  iterable: 'The API key you provided is invalid.',
  mailpro: 'Failed to connect to MailPro, please check the credentials you provided.',
  mailplus: 'Failed to connect to Mail+, please check the credentials you provided.',
  alreadyEnabled: 'This integration is already enabled',
  googleAnalytics:
    'We were unable to connect with your Google Analytics account. Please contact us if this problem persists.',
  gaNoAccounts: 'You currently do not have access to any GA accounts.',
  gaAllSelected: 'All views have been selected for import.',
  gaNoAccess: 'No access to GA views has been granted yet.',
  gaNoneSelected: 'No Google Analytics views have been selected yet.',
} as const;

/**
 * A connected unit (account, brand, campaign, view...): the provider's id and name. A Google Analytics view (a GA4
 * property) also has its account's name and the market it reports on (optional).
 */
export const integrationUnitSchema = z.object({
  id: z.string(),
  name: z.string(),
  account_name: z.string().optional(),
  market: z.string().nullable().optional(),
});
export type IntegrationUnit = z.infer<typeof integrationUnitSchema>;

/** An integration as the browser sees it: never its credentials. */
export const integrationSchema = z.object({
  id: z.number().int(),
  type: integrationTypeSchema,
  name: z.string(),
  units: z.array(integrationUnitSchema),
});
export type Integration = z.infer<typeof integrationSchema>;
export const integrationListResponseSchema = z.object({ data: z.array(integrationSchema) });
export const integrationResponseSchema = z.object({ data: integrationSchema });

export const integrationParamsSchema = workspaceIdParamsSchema.extend({
  integrationId: idFromPath('Invalid integration id'),
});

const secret = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(2000);

/** A DNS name as typed by the user (no scheme, port or path): the MailPro account's own host. */
const hostnameSchema = z
  .string({ error: 'Hostname is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Hostname is required')
  .max(253)
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'Please enter a valid hostname');

export const klaviyoConnectBodySchema = z.strictObject({ api_key: secret('API key') });
export const copernicaBodySchema = z.strictObject({ token: secret('Token') });
export const iterableBodySchema = z.strictObject({ region: z.enum(['US', 'EU']), api_key: secret('API key') });
export const deployteqBodySchema = z.strictObject({
  client_id: secret('Client ID'),
  client_secret: secret('Client secret'),
});
export const mailproBodySchema = z.strictObject({
  client_id: secret('Client ID'),
  client_secret: secret('Client secret'),
  hostname: hostnameSchema,
});
/** Spec 1 section 5 words these two itself. */
export const MAILPLUS_MESSAGES = {
  consumerKey: 'Please provide a consumer key',
  consumerSecret: 'Please provide a consumer secret',
} as const;
const required = (message: string) => z.string({ error: message }).trim().min(1, message).max(2000);
export const mailplusBodySchema = z.strictObject({
  consumer_key: required(MAILPLUS_MESSAGES.consumerKey),
  consumer_secret: required(MAILPLUS_MESSAGES.consumerSecret),
});
export const salesforceBodySchema = z.strictObject({
  account_id: z
    .string()
    .trim()
    .regex(/^[0-9]{1,12}$/, 'Please enter a valid account id'),
});

/** A Google Analytics property the product's service account can read, not yet added (spec 1 section 3). */
export const gaAvailableViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  account_name: z.string(),
  propertyName: z.string(),
  viewName: z.string(),
});
export type GaAvailableView = z.infer<typeof gaAvailableViewSchema>;
/**
 * The available views, how many GA accounts granted access at all (none: 'You currently do not have access to any GA
 * accounts.'), and the connection: the service account whose address the admin grants read access to.
 */
export const gaAvailableResponseSchema = z.object({
  data: z.array(gaAvailableViewSchema),
  accounts: z.number().int(),
  connection: z.object({ type: z.literal('service_account'), account: z.string() }),
});
export type GaAvailableResponse = z.infer<typeof gaAvailableResponseSchema>;
export const gaPropertyBodySchema = z.strictObject({
  property_id: z.string({ error: 'Please choose a view' }).regex(/^[0-9]{1,20}$/, 'Please choose a view'),
  market: marketSchema.nullable().optional(),
});
export const gaPropertyParamsSchema = workspaceIdParamsSchema.extend({
  viewId: z.string().regex(/^[0-9]{1,20}$/, 'Invalid view id'),
});

/** Copernica's tree: databases, their views, and views nested in views. */
export const copernicaNodeSchema = z.object({ id: z.string(), name: z.string(), has_children: z.boolean() });
export type CopernicaNode = z.infer<typeof copernicaNodeSchema>;
export const copernicaNodeListResponseSchema = z.object({ data: z.array(copernicaNodeSchema) });
export const copernicaTrackedViewsBodySchema = z.strictObject({
  views: z
    .array(z.strictObject({ id: z.string().regex(/^[0-9]{1,12}$/), name: z.string().trim().min(1).max(200) }))
    .max(500),
});
export const copernicaTrackedViewsResponseSchema = z.object({ data: z.array(integrationUnitSchema) });
export const copernicaDatabaseParamsSchema = integrationParamsSchema.extend({
  dbId: z.string().regex(/^[0-9]{1,12}$/),
});
export const copernicaViewParamsSchema = integrationParamsSchema.extend({ viewId: z.string().regex(/^[0-9]{1,12}$/) });

/** Credentials the product issues to a workspace for pushing files: shown to admins only. */
export const bucketInfoResponseSchema = z.object({ data: z.object({ name: z.string(), key_json: z.string() }) });
export const sftpAccountResponseSchema = z.object({
  data: z.object({
    username: z.string(),
    password: z.string(),
    host: z.string(),
    port: z.literal(2022),
    path: z.literal('/'),
  }),
});
