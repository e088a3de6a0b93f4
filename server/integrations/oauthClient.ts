import { z } from 'zod';
import { callProvider, type ProviderContext, ProviderError } from './provider';

const tokenSchema = z.object({ access_token: z.string().min(1) });

/** OAuth 2 client-credentials grant (RFC 6749 section 4.4), as Deployteq and Spotler MailPro use it. */
export async function clientCredentialsToken(
  context: ProviderContext,
  url: string,
  failure: string,
  form: { client_id: string; client_secret: string; scope?: string },
  userHost = false,
): Promise<string> {
  const answer = await callProvider(context, url, failure, {
    method: 'POST',
    form: { grant_type: 'client_credentials', ...form },
    userHost,
  });
  const parsed = tokenSchema.safeParse(answer);
  if (!parsed.success) throw new ProviderError(failure);
  return parsed.data.access_token;
}
