import { z } from 'zod';

// Also a numeric string, so that `${HTTP_PORT:-9464}` (interpolation yields text) works.
const portNumber = z
  .union([z.number(), z.string().regex(/^\d+$/, 'must be a port number').transform(Number)])
  .pipe(z.number().int().min(0).max(65_535));

/** Schema of the `http` section. */
export const httpSchema = z
  .strictObject({
    port: portNumber.optional().describe('Port; the endpoint is off when unset.'),
    host: z.string().default('0.0.0.0').describe('Interface to bind.'),
  })
  .describe('HTTP endpoint for /healthz, /readyz and /metrics.');
