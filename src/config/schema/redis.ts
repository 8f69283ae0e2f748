import { z } from 'zod';
import { secret } from './value-types.js';

/** Schema of the `redis` section. */
export const redisSchema = z
  .strictObject({
    url: secret
      .prefault('redis://127.0.0.1:6379')
      .describe('Redis URL; credentials in it are treated as secret.'),
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .default('shortwatch')
      .describe('Key prefix for every key and queue; lets several deployments share one Redis.'),
  })
  .describe('Redis, shared by every shortwatch process.');
