import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import { ALERT_MESSAGES } from '../src/contracts/alerting';
import { SPEC_MESSAGES } from '../src/contracts/common';
import { CONNECT_MESSAGES } from '../src/contracts/integrations';
import { csrfGuard } from './auth/csrf';
import type { Config } from './config';
import { type DatabaseHandle, describeDatabaseError, isDatabaseUnavailable } from './db/client';
import { HttpError } from './http/errors';
import { answerFrameworkError, DEFAULT_BODY_LIMIT, installInputGuard } from './http/inputGuard';
import { zodSerializerCompiler } from './http/responseSchema';
import { registerHttpSecurity } from './http/security';
import { RequestValidationError, zodValidatorCompiler, type ZodTypeProvider } from './http/zod';
import { adminRoutes } from './routes/admin';
import { alertingRoutes } from './routes/alerting';
import { annotationRoutes } from './routes/annotations';
import { campaignCollectionRoutes } from './routes/campaignCollections';
import { dataModelRoutes } from './routes/dataModel';
import { datasetRoutes } from './routes/datasets';
import { devOutboxRoutes } from './routes/devOutbox';
import { feedbackRoutes } from './routes/feedback';
import { googleRoutes } from './routes/google';
import { googleAnalyticsRoutes } from './routes/googleAnalytics';
import { healthRoutes } from './routes/health';
import { copernicaRoutes, integrationRoutes } from './routes/integrations';
import { loginRoutes } from './routes/login';
import { marketFlagRoutes } from './routes/marketFlags';
import { meRoutes } from './routes/me';
import { memberRoutes } from './routes/members';
import { reportRoutes } from './routes/reports';
import { sessionRoutes } from './routes/session';
import { targetRoutes } from './routes/targets';
import { workspaceRoutes } from './routes/workspaces';
import { openSecretBox, type SecretBox } from './services/secrets';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: DatabaseHandle;
    /** Encrypts secrets at rest (server/services/secrets.ts). */
    secrets: SecretBox;
  }
}

export interface AppOptions {
  config: Config;
  db: DatabaseHandle;
  /** Fastify's logger option; pino with secrets redacted by default. */
  logger?: FastifyServerOptions['logger'];
}

/** Files whose names carry a content hash never change: browsers may keep them for a year. */
const HASHED_ASSET = /\.[0-9a-f]{8,}\.(js|css|json|wasm|woff2?|ttf|svg|png|jpg|map)$/;

export function defaultLogger(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    // Readable lines for a person at a terminal; JSON lines for log collectors.
    ...(process.stdout.isTTY && hasModule('pino-pretty')
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
      : {}),
  };
}

function hasModule(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the whole server: API under /api, the session route, and the single-page app with its assets.
 * Long because the server's plugins, hooks and routes are registered in one place, in the order they must run.
 */
export async function buildApp({ config, db, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? defaultLogger(config),
    trustProxy: config.TRUST_PROXY,
    // Small by default; the routes that take whole documents raise it for themselves.
    bodyLimit: DEFAULT_BODY_LIMIT,
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('secrets', await openSecretBox(config));
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);
  registerHttpSecurity(app);
  installInputGuard(app);

  const connectMessages = new Set<string>(Object.values(CONNECT_MESSAGES));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ ...error.body, error: error.message });
    }
    // A bad path id is named by its own message, e.g. 'Invalid workspace id' (spec 1 §8), and so is
    // any problem the spec words itself.
    if (error instanceof RequestValidationError && error.issues[0]) {
      const { message } = error.issues[0];
      if (
        error.part === 'params' ||
        SPEC_MESSAGES.has(message) ||
        ALERT_MESSAGES.has(message) ||
        connectMessages.has(message)
      ) {
        return reply.code(400).send({ error: message });
      }
    }
    if (error instanceof RequestValidationError || error.validation) {
      return reply.code(400).send({ error: error.message });
    }
    // The database restarting, stopped or too slow: a quick 503 the client may retry, never a hanging request.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ database: describeDatabaseError(error) }, 'database unavailable');
      return reply.code(503).header('Retry-After', '5').send({ error: 'Service unavailable' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({ error: 'Unknown error' });
    }
    return reply.code(status).send({ error: error.message });
  });

  await app.register(cookie);
  await app.register(compress, { global: true, threshold: 1024 });

  await app.register(
    async (api) => {
      api.addHook('onRequest', csrfGuard);
      await api.register(healthRoutes);
      await api.register(loginRoutes);
      await api.register(googleRoutes);
      await api.register(meRoutes);
      await api.register(feedbackRoutes);
      await api.register(workspaceRoutes);
      await api.register(memberRoutes);
      await api.register(annotationRoutes);
      await api.register(integrationRoutes);
      await api.register(copernicaRoutes);
      await api.register(googleAnalyticsRoutes);
      await api.register(campaignCollectionRoutes);
      await api.register(adminRoutes);
      await api.register(devOutboxRoutes);
      await api.register(datasetRoutes);
      await api.register(dataModelRoutes);
      await api.register(reportRoutes);
      await api.register(targetRoutes);
      await api.register(alertingRoutes);
      api.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not found' }));
    },
    { prefix: '/api' },
  );

  await app.register(sessionRoutes);
  await app.register(marketFlagRoutes);
  registerSpa(app, config.staticDir);
  return app;
}

/**
 * Serves the production build: hashed assets with a long cache, .wasm as application/wasm,
 * and index.html (never cached) for every client route.
 */
function registerSpa(app: FastifyInstance, staticDir: string): void {
  const indexFile = path.join(staticDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  if (hasBuild) {
    void app.register(fastifyStatic, {
      root: staticDir,
      index: false,
      wildcard: true,
      // Our own Cache-Control below: long for hashed files, revalidate for the rest.
      cacheControl: false,
      // The build writes .br and .gz copies of large files (the DuckDB modules): sent as they are, so the server
      // never compresses 34 MB per request.
      preCompressed: true,
      // Since @fastify/static 10 this receives Fastify's reply, not the raw response; the path is the copy sent.
      setHeaders(reply, filePath) {
        const original = filePath.replace(/\.(br|gz)$/, '');
        if (original.endsWith('.wasm')) reply.header('Content-Type', 'application/wasm');
        reply.header(
          'Cache-Control',
          HASHED_ASSET.test(original) ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
        );
      },
    });
  }
  const sendPage = (reply: FastifyReply) => {
    if (!hasBuild) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web application has not been built yet: run `npm run build` (npm start does this for you).');
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html').send(fs.createReadStream(indexFile));
  };
  app.get('/', (_request, reply) => sendPage(reply));
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0];
    const isApi = pathname.startsWith('/api/') || pathname === '/api' || pathname === '/session';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApi && !path.extname(pathname);
    if (!wantsPage) return reply.code(404).send({ error: 'Not found' });
    return sendPage(reply);
  });
}
