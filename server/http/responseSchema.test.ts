import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { ResponseContractError, zodSerializerCompiler } from './responseSchema';

const profileSchema = z.object({ id: z.number().int(), name: z.string(), seenAt: z.string() });

describe('response schemas on the server', () => {
  let app: FastifyInstance | undefined;
  const failures: unknown[] = [];
  let answer: unknown;

  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.setSerializerCompiler(zodSerializerCompiler);
    app.setErrorHandler((error, _request, reply) => {
      failures.push(error);
      return reply.code(500).send({ error: 'Internal Server Error' });
    });
    app.get('/profile', { schema: { response: { 200: profileSchema } } }, async () => answer);
    await app.ready();
  }, START_TIMEOUT_MS);
  afterAll(() => app?.close(), START_TIMEOUT_MS);
  beforeEach(() => failures.splice(0));

  it('sends what the contract names, dates as the client reads them, and nothing else', async () => {
    answer = { id: 7, name: 'Mia', seenAt: new Date('2026-11-24T18:00:00Z'), passwordHash: 'x' };
    const res = await app!.inject({ method: 'GET', url: '/profile' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 7, name: 'Mia', seenAt: '2026-11-24T18:00:00.000Z' });
  });

  it('fails loudly when a route answers a wrong shape', async () => {
    answer = { id: '7', name: 'Mia' };
    const res = await app!.inject({ method: 'GET', url: '/profile' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('Mia');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(ResponseContractError);
    expect((failures[0] as Error).message).toBe(
      'GET /profile 200 answered outside its contract: Invalid response: id: Invalid input: expected number, received string',
    );
  });
});
