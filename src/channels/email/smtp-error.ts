import { z } from 'zod';
import { redactText } from '../../config/secret.js';
import { DeliveryError, type DeliveryOutcome } from '../delivery-error.js';
import { oneLine } from './text.js';

/** The fields nodemailer puts on its errors; anything else thrown parses to an empty shape. */
const smtpErrorShape = z.object({
  code: z.string().optional().catch(undefined),
  originalCode: z.string().optional().catch(undefined),
  responseCode: z.number().int().optional().catch(undefined),
  permanent: z.boolean().optional().catch(undefined),
  response: z.string().optional().catch(undefined),
  command: z.string().optional().catch(undefined),
});

type SmtpErrorFields = z.output<typeof smtpErrorShape>;

/**
 * Failures that no retry can fix without a config change: bad credentials, an address the client
 * itself rejects, a message over the server's size limit, a TLS requirement the server cannot meet.
 */
const PARK_CODES: ReadonlySet<string> = new Set([
  'EAUTH',
  'ENOAUTH',
  'EENVELOPE',
  'EMESSAGE',
  'ECONFIG',
  'EREQUIRETLS',
]);

const MAX_RESPONSE_CHARS = 200;

/** Retry or park: the server's reply class decides when it replied, the error code when it did not. */
export function smtpOutcome(fields: SmtpErrorFields): DeliveryOutcome {
  if (fields.responseCode !== undefined) {
    // nodemailer sets `permanent` for 5xx except 503; 4xx (and 503) may succeed on a later attempt.
    return fields.permanent === true ? 'park' : 'retry';
  }
  if (fields.code !== undefined && PARK_CODES.has(fields.code)) return 'park';
  // No reply at all: connection refused, DNS, timeout, reset. The server may be back soon.
  return 'retry';
}

/** What went wrong, from the error's fields only: nodemailer's own messages are not reused. */
function describe(fields: SmtpErrorFields, secrets: Iterable<string>): string {
  if (fields.responseCode !== undefined) {
    const reply = fields.response
      ? oneLine(redactText(fields.response, secrets)).slice(0, MAX_RESPONSE_CHARS)
      : '';
    const command = fields.command ? ` to ${fields.command}` : '';
    return `server replied${command}: ${reply || fields.responseCode}`;
  }
  const code = fields.code ?? 'unknown error';
  return fields.originalCode && fields.originalCode !== code ? `${code} (${fields.originalCode})` : code;
}

/**
 * A nodemailer failure as a DeliveryError. The message names the server and the reply, never the
 * password or URL; the original error is not attached as `cause` because loggers print causes.
 */
export function toDeliveryError(
  error: unknown,
  context: { server: string; action: string; secrets: Iterable<string> },
): DeliveryError {
  const parsed = smtpErrorShape.safeParse(error);
  const fields: SmtpErrorFields = parsed.success ? parsed.data : {};
  const outcome = smtpOutcome(fields);
  return new DeliveryError(
    `SMTP ${context.server}: ${context.action} failed: ${describe(fields, context.secrets)}`,
    {
      outcome,
      status: fields.responseCode,
      code: fields.code,
    },
  );
}
