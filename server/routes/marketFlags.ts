import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../http/zod';
import { renderMarketFlags } from '../img/marketFlags';

const flagParamsSchema = z.object({ file: z.string().max(16) });

/** `GET /img/markets/{code}.png`: the flag of every market the Google Analytics market picker offers. */
export const marketFlagRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const flags = renderMarketFlags();
  app.get('/img/markets/:file', { schema: { params: flagParamsSchema } }, async (request, reply) => {
    const code = /^([A-Z]{2})\.png$/.exec(request.params.file)?.[1];
    const image = code === undefined ? undefined : flags.get(code);
    if (!image) return reply.code(404).type('text/plain').send('Not found');
    return reply.type('image/png').header('Cache-Control', 'public, max-age=86400').send(image);
  });
};
