import type { FastifyInstance } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { z } from 'zod';

const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});
type Discovery = z.infer<typeof discoverySchema>;

interface Provider {
  discovery: Discovery;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

const providers = new WeakMap<FastifyInstance, Promise<Provider>>();

/** The provider's metadata and keys, fetched once per process from GOOGLE_ISSUER's discovery document. */
export function provider(app: FastifyInstance): Promise<Provider> {
  let found = providers.get(app);
  if (!found) {
    found = (async () => {
      const issuer = app.config.GOOGLE_ISSUER.replace(/\/+$/, '');
      const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`OpenID discovery failed with ${res.status}`);
      const discovery = discoverySchema.parse(await res.json());
      return { discovery, jwks: createRemoteJWKSet(new URL(discovery.jwks_uri)) };
    })();
    // A failed discovery is retried on the next sign-in rather than remembered.
    found.catch(() => providers.delete(app));
    providers.set(app, found);
  }
  return found;
}

export const googleEnabled = (app: FastifyInstance) =>
  Boolean(app.config.GOOGLE_CLIENT_ID && app.config.GOOGLE_CLIENT_SECRET);

const idTokenClaimsSchema = z.object({
  sub: z.string().min(1),
  email: z.email(),
  email_verified: z.literal(true),
  nonce: z.string(),
  name: z.string().optional(),
});
export type GoogleIdentity = z.infer<typeof idTokenClaimsSchema>;

/** Trades the authorization code for tokens and verifies the id_token: signature, issuer, audience, expiry, nonce. */
export async function exchangeCode(
  app: FastifyInstance,
  code: string,
  redirectUri: string,
  nonce: string,
): Promise<GoogleIdentity> {
  const { discovery, jwks } = await provider(app);
  const res = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: app.config.GOOGLE_CLIENT_ID ?? '',
      client_secret: app.config.GOOGLE_CLIENT_SECRET ?? '',
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`token endpoint answered ${res.status}`);
  const { id_token: idToken } = z.object({ id_token: z.string() }).parse(await res.json());
  const { payload } = await jwtVerify(idToken, jwks, {
    issuer: discovery.issuer,
    audience: app.config.GOOGLE_CLIENT_ID,
  });
  const claims = idTokenClaimsSchema.parse(payload);
  if (claims.nonce !== nonce) throw new Error('nonce mismatch');
  return { ...claims, email: claims.email.toLowerCase() };
}
