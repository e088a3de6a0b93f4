import { INTEGRATION_TYPES, type Integration, type IntegrationType } from '../../contracts/integrations';

export const INSUFFICIENT_PRIVILEGES =
  'Insufficient privileges - Please ask an administrator to make changes to the integrations of this workspace.';

/** Active when the integration has connected units (spec 1 section 4). */
export const isActive = (integration: Integration): boolean => integration.units.length > 0;

export interface Field {
  name: string;
  label: string;
  secret?: boolean;
  options?: string[];
}

/** What each connect call asks for (spec 1 section 7). */
export const FIELDS: Partial<Record<IntegrationType, Field[]>> = {
  klaviyo: [{ name: 'api_key', label: 'Private API key', secret: true }],
  copernica: [{ name: 'token', label: 'API token', secret: true }],
  iterable: [
    { name: 'region', label: 'Region', options: ['US', 'EU'] },
    { name: 'api_key', label: 'API key', secret: true },
  ],
  deployteq: [
    { name: 'client_id', label: 'Client ID' },
    { name: 'client_secret', label: 'Client secret', secret: true },
  ],
  webpower: [
    { name: 'client_id', label: 'Client ID' },
    { name: 'client_secret', label: 'Client secret', secret: true },
    { name: 'hostname', label: 'Hostname' },
  ],
  salesforce: [{ name: 'account_id', label: 'Account ID (MID)' }],
};

/** Types set up on a screen of their own rather than with a connect form. */
const OWN_SCREENS = new Set<IntegrationType>(['google_analytics']);

/** Types an admin can connect from this page: not 'custom' (set up by the provider), with a form or own screen. */
export const isConnectable = (type: IntegrationType): boolean =>
  !INTEGRATION_TYPES[type].custom && (type in FIELDS || OWN_SCREENS.has(type));
