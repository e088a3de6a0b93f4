import { type z } from 'zod';
import { healthResponseSchema } from '../contracts/health';
import { api } from '../store/api';

const healthApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHealth: build.query<z.infer<typeof healthResponseSchema>, void>({
      query: () => '/health',
      responseSchema: healthResponseSchema,
    }),
  }),
});

export const { useGetHealthQuery } = healthApi;
