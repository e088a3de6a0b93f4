import { z } from 'zod';
import { INTEGRATION_ERRORS } from '../../src/contracts/integrations';
import { clientCredentialsToken } from './oauthClient';
import { callProvider, ProviderError, type ProviderAdapter, type ProviderContext } from './provider';

const campaignsSchema = z.array(z.object({ id: z.union([z.number(), z.string()]), name: z.string() }));

/**
 * The MailPro account's root: the admin's hostname put into MAILPRO_API_URL. Unless the operator fixed the host
 * (the simulator takes the hostname as a path segment), the host is user input and the allow-list does not apply,
 * so 127.0.0.1 or a private name is refused before any connection.
 */
function accountRoot(context: ProviderContext, hostname: string): { root: string; userHost: boolean } {
  const template = context.config.MAILPRO_API_URL;
  const probe = new URL(template.replace('{hostname}', 'hostname.invalid'));
  return {
    root: template.replace('{hostname}', hostname).replace(/\/+$/, ''),
    userHost: probe.hostname === 'hostname.invalid',
  };
}

/** Spotler MailPro (formerly Webpower): OAuth 2 token from /admin/oauth2/token.php, then the REST campaigns. */
export const webpower: ProviderAdapter<{ clientId: string; clientSecret: string; hostname: string }> = {
  async listUnits(context, { clientId, clientSecret, hostname }) {
    const { root, userHost } = accountRoot(context, hostname);
    const failure = INTEGRATION_ERRORS.mailpro;
    const token = await clientCredentialsToken(
      context,
      `${root}/admin/oauth2/token.php`,
      failure,
      { client_id: clientId, client_secret: clientSecret, scope: 'rest' },
      userHost,
    );
    const answer = await callProvider(context, `${root}/admin/api/index.php/rest/campaign`, failure, {
      headers: { authorization: `Bearer ${token}` },
      userHost,
    });
    const parsed = campaignsSchema.safeParse(answer);
    if (!parsed.success) throw new ProviderError(failure);
    return parsed.data.map((campaign) => ({ id: String(campaign.id), name: campaign.name }));
  },
};
