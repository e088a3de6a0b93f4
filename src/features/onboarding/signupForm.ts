import { signupBodySchema, type SignupBody } from '../../contracts/me';

/** The marketing automation tools the older signup form offers (free text is allowed too). */
export const AUTOMATION_TOOLS = [
  'ActiveCampaign',
  'Adobe Campaign',
  'Bloomreach',
  'Braze',
  'Brevo',
  'Campaign Monitor',
  'Copernica',
  'Customer.io',
  'Deployteq',
  'dotdigital',
  'Emarsys',
  'GetResponse',
  'HubSpot',
  'Iterable',
  'Klaviyo',
  'Mailchimp',
  'MailerLite',
  'Maileon',
  'Mailjet',
  'Mailkit',
  'Mail+',
  'Marigold',
  'Marketo',
  'Omnisend',
  'Oracle Eloqua',
  'Ortto',
  'Pardot',
  'Salesforce Marketing Cloud',
  'Selligent',
  'SendGrid',
  'SharpSpring',
  'SMTPeter',
  'Spotler MailPro',
  'Squeezely',
] as const;

export type SignupErrors = Partial<Record<keyof SignupBody, string>>;

/** Checks the form with the signup contract and returns the first message per field. */
export function validateSignup(
  values: SignupBody,
): { ok: true; body: SignupBody } | { ok: false; errors: SignupErrors } {
  const result = signupBodySchema.safeParse(values);
  if (result.success) return { ok: true, body: result.data };
  const errors: SignupErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof SignupBody;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
