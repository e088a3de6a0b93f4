import {
  INTEGRATION_TYPES,
  type Integration,
  type IntegrationType,
  MAILPLUS_MESSAGES,
} from '../../contracts/integrations';

export const INSUFFICIENT_PRIVILEGES =
  'Insufficient privileges - Please ask an administrator to make changes to the integrations of this workspace.';

/** Active when the integration has connected units (spec 1 section 4). */
export const isActive = (integration: Integration): boolean => integration.units.length > 0;

export interface Field {
  name: string;
  label: string;
  secret?: boolean;
  options?: string[];
  /** The spec's message (spec 1 section 5) when the field is left empty; the form then sends nothing. */
  required?: string;
}

/** What each connect call asks for (spec 1 section 7). */
export const FIELDS: Partial<Record<IntegrationType, Field[]>> = {
  klaviyo: [{ name: 'api_key', label: 'Private API key', secret: true }],
  copernica: [{ name: 'token', label: 'API token', secret: true }],
  iterable: [
    { name: 'region', label: 'Region', options: ['EU', 'US'] },
    { name: 'api_key', label: 'API key', secret: true, required: 'Please provide an API key' },
  ],
  deployteq: [
    { name: 'client_id', label: 'Client ID', required: 'Client ID is required' },
    { name: 'client_secret', label: 'Client secret', secret: true, required: 'Client secret is required' },
  ],
  webpower: [
    { name: 'client_id', label: 'Client ID', required: 'Please provide a client ID' },
    { name: 'client_secret', label: 'Client secret', secret: true, required: 'Please provide a client secret' },
    { name: 'hostname', label: 'Hostname', required: 'Please provide a hostname' },
  ],
  mailplus: [
    { name: 'consumer_key', label: 'Consumer key', required: MAILPLUS_MESSAGES.consumerKey },
    { name: 'consumer_secret', label: 'Consumer secret', secret: true, required: MAILPLUS_MESSAGES.consumerSecret },
  ],
  salesforce: [{ name: 'account_id', label: 'Account ID (MID)', required: 'This field is required' }],
};

/**
 * Types whose data arrives as files the provider pushes to us, and where to: Marketing Cloud's file exports go to
 * the workspace's SFTP account; Braze Currents and BigQuery exports to its Google Cloud Storage bucket.
 */
export const PUSH_DESTINATIONS: Partial<Record<IntegrationType, 'gcs' | 'sftp'>> = {
  salesforce: 'sftp',
  braze: 'gcs',
  google_bigquery: 'gcs',
};

/** Types set up on a screen of their own rather than with a connect form. */
const OWN_SCREENS = new Set<IntegrationType>(['google_analytics']);

/** Types an admin can connect from this page: not 'custom' (set up by the provider), with a form or own screen. */
export const isConnectable = (type: IntegrationType): boolean =>
  !INTEGRATION_TYPES[type].custom && (type in FIELDS || OWN_SCREENS.has(type));
