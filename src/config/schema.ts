import { z } from 'zod';
import { parseDuration } from './duration.js';
import { Secret } from './secret.js';

/** A secret string: from `${ENV}`, `${file:/path}` or a sibling `*File` key; never printed. */
export const secret = z
  .string()
  .min(1, 'must not be empty')
  .transform((value) => new Secret(value));

/** A duration written `90s`, `2m`, `6h`, `7d`, `250ms`, or a number of milliseconds. */
export const duration = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = parseDuration(value);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a duration (use e.g. 90s, 2m, 6h, 7d)` });
    return z.NEVER;
  }
  return ms;
});

const ianaTimezone = z.string().refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'is not an IANA time zone (e.g. Europe/London)' },
);

/** A TCP port, also as a numeric string so that `${HTTP_PORT:-9464}` works. */
const portNumber = z
  .union([z.number(), z.string().regex(/^\d+$/, 'must be a port number').transform(Number)])
  .pipe(z.number().int().min(0).max(65_535));

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour)');
const weekday = z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
const percent = z.number().finite().min(0).max(100);

/** The upstream short-position service. */
const upstreamSchema = z
  .strictObject({
    /** Base URL of the service, without a trailing slash. */
    baseUrl: z.url().describe('Base URL of the service, without a trailing slash.'),
    /** Bearer API key (secret), e.g. from the `SHORTWATCH_API_KEY` environment variable or `apiKeyFile`. */
    apiKey: secret.describe(
      'Bearer API key (secret), e.g. from the `SHORTWATCH_API_KEY` environment variable or `apiKeyFile`.',
    ),
    /** Time allowed for the response headers and for the body, each. */
    timeout: duration
      .prefault('15s')
      .describe('Time allowed for the response headers and for the body, each.'),
    /** Largest response body accepted, in bytes. */
    maxBodyBytes: z
      .number()
      .int()
      .positive()
      .default(10 * 1024 * 1024)
      .describe('Largest response body accepted, in bytes.'),
    /** Retries of 5xx, timeouts and network errors (never 4xx). */
    retries: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(2)
      .describe('Retries of 5xx, timeouts and network errors (never 4xx).'),
    /** First retry delay; doubles each time, with full jitter. */
    retryDelay: duration
      .prefault('500ms')
      .describe('First retry delay; doubles each time, with full jitter.'),
  })
  .describe('The upstream short-position service.');

/** Redis, shared by every shortwatch process. */
const redisSchema = z
  .strictObject({
    /** Redis URL; credentials in it are treated as secret. */
    url: secret
      .prefault('redis://127.0.0.1:6379')
      .describe('Redis URL; credentials in it are treated as secret.'),
    /** Key prefix for every key and queue; lets several deployments share one Redis. */
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .default('shortwatch')
      .describe('Key prefix for every key and queue; lets several deployments share one Redis.'),
  })
  .describe('Redis, shared by every shortwatch process.');

/** The plan's request caps, shared by every process through Redis. */
const budgetSchema = z
  .strictObject({
    /** Requests allowed per minute window (UTC-aligned). */
    perMinute: z
      .number()
      .int()
      .positive()
      .default(100)
      .describe('Requests allowed per minute window (UTC-aligned).'),
    /** Requests allowed per day window (UTC-aligned). */
    perDay: z
      .number()
      .int()
      .positive()
      .default(1000)
      .describe('Requests allowed per day window (UTC-aligned).'),
    /** Daily requests kept for interactive CLI commands; polling never spends them. */
    reserve: z
      .number()
      .int()
      .min(0)
      .default(50)
      .describe('Daily requests kept for interactive CLI commands; polling never spends them.'),
    /** Length of the short window; shorten only for tests and benchmarks. */
    minuteWindow: duration
      .prefault('1m')
      .describe('Length of the short window; shorten only for tests and benchmarks.'),
    /** Length of the long window; shorten only for tests and benchmarks. */
    dayWindow: duration
      .prefault('1d')
      .describe('Length of the long window; shorten only for tests and benchmarks.'),
  })
  .describe("The plan's request caps, shared by every process through Redis.");

/** How often the watchlist is looked at. */
const pollSchema = z
  .strictObject({
    /** Use the issuer list's `last_updated` as a gate: poll issuers only when the dataset moved. */
    gate: z
      .boolean()
      .default(true)
      .describe("Use the issuer list's `last_updated` as a gate: poll issuers only when the dataset moved."),
    /** How often the gate (one GET /issuers) is checked; raised by the planner when the budget needs it. */
    gateInterval: duration
      .prefault('2m')
      .describe(
        'How often the gate (one GET /issuers) is checked; raised by the planner when the budget needs it.',
      ),
    /** Sweep interval when the gate is off; the planner raises it to fit the daily budget. */
    interval: duration
      .prefault('30m')
      .describe('Sweep interval when the gate is off; the planner raises it to fit the daily budget.'),
    /** Poll every issuer at least this often even when `last_updated` has not moved. */
    maxStaleness: duration
      .prefault('6h')
      .describe('Poll every issuer at least this often even when `last_updated` has not moved.'),
    /** Poll jobs run at once in each process. */
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(4)
      .describe('Poll jobs run at once in each process.'),
    /** How long a poll held by a process that died stays claimed before another process runs it again; a running poll renews its claim every half of this. */
    lockDuration: duration
      .refine((ms) => ms >= 1_000, 'must be at least 1s')
      .prefault('30s')
      .describe(
        'How long a poll held by a process that died stays claimed before another process runs it again; a running poll renews its claim every half of this.',
      ),
    /** First observation of an issuer: `baseline` (silent) or `alert` (every position is `opened`). */
    onFirstSeen: z
      .enum(['baseline', 'alert'])
      .default('baseline')
      .describe(
        'First observation of an issuer: `baseline` (silent) or `alert` (every position is `opened`).',
      ),
    /** Position thresholds (%) whose crossing is reported on each event. */
    thresholds: z
      .array(percent)
      .default([0.5, 1, 2, 5])
      .describe('Position thresholds (%) whose crossing is reported on each event.'),
    /** Fetch `status=all` to add the final disclosed value to `closed` events when the budget has room. */
    enrichClosed: z
      .boolean()
      .default(true)
      .describe(
        'Fetch `status=all` to add the final disclosed value to `closed` events when the budget has room.',
      ),
    /** Events kept per issuer for `shortwatch events`. */
    eventsKept: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .default(200)
      .describe('Events kept per issuer for `shortwatch events`.'),
  })
  .describe('How often the watchlist is looked at.');

/** One watched issuer, by upstream id or by name. */
const watchEntrySchema = z
  .union([
    z.strictObject({
      /** Upstream issuer id (`svc_issuer_id`), taken as given. */
      id: z.string().min(1).describe('Upstream issuer id (`svc_issuer_id`), taken as given.'),
      /** Display label used in messages. */
      label: z.string().optional().describe('Display label used in messages.'),
    }),
    z.strictObject({
      /** Issuer name, resolved against the issuer list case- and whitespace-insensitively. */
      name: z
        .string()
        .min(1)
        .describe('Issuer name, resolved against the issuer list case- and whitespace-insensitively.'),
      /** Display label used in messages. */
      label: z.string().optional().describe('Display label used in messages.'),
    }),
  ])
  .describe('One watched issuer, by upstream id or by name.');

/** Which events a channel receives. Every list is optional; an empty filter passes everything. */
const filterSchema = z
  .strictObject({
    /** Issuer ids or names; default: every watched issuer. */
    issuers: z
      .array(z.string().min(1))
      .optional()
      .describe('Issuer ids or names; default: every watched issuer.'),
    /** Holder names matched by holder key (spelling-insensitive). */
    holders: z
      .array(z.string().min(1))
      .optional()
      .describe('Holder names matched by holder key (spelling-insensitive).'),
    /** Holder names never sent to this channel. */
    excludeHolders: z
      .array(z.string().min(1))
      .optional()
      .describe('Holder names never sent to this channel.'),
    /** Event kinds to send. */
    kinds: z
      .array(z.enum(['opened', 'increased', 'decreased', 'closed']))
      .optional()
      .describe('Event kinds to send.'),
    /** Minimum of the larger of the old and new value, in %. */
    minValue: percent.optional().describe('Minimum of the larger of the old and new value, in %.'),
    /** Minimum absolute change, in percentage points. */
    minDelta: percent.optional().describe('Minimum absolute change, in percentage points.'),
    /** Send only events whose position crosses one of these values (%), up or down. */
    thresholds: z
      .array(percent)
      .optional()
      .describe('Send only events whose position crosses one of these values (%), up or down.'),
    /** Send only events whose issuer total disclosed short crosses one of these values (%). */
    issuerTotalThresholds: z
      .array(percent)
      .optional()
      .describe('Send only events whose issuer total disclosed short crosses one of these values (%).'),
  })
  .describe('Which events a channel receives. Every list is optional; an empty filter passes everything.');

/** Hours in which an immediate channel stays silent. */
const quietHoursSchema = z
  .strictObject({
    /** Days on which quiet hours apply; default every day. */
    days: z
      .array(weekday)
      .default(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'])
      .describe('Days on which quiet hours apply; default every day.'),
    /** Start of the quiet period, local time (may be after `end`, spanning midnight). */
    start: clockTime.describe(
      'Start of the quiet period, local time (may be after `end`, spanning midnight).',
    ),
    /** End of the quiet period, local time. */
    end: clockTime.describe('End of the quiet period, local time.'),
    /** IANA time zone of `start` and `end`. */
    timezone: ianaTimezone.describe('IANA time zone of `start` and `end`.'),
    /** Name of a digest channel to fold quiet events into; default: deliver them when quiet hours end. */
    foldInto: z
      .string()
      .optional()
      .describe(
        'Name of a digest channel to fold quiet events into; default: deliver them when quiet hours end.',
      ),
  })
  .describe('Hours in which an immediate channel stays silent.');

/** Sends per second allowed to a channel, with its kind's default (Slack webhooks take about one a second). */
function ratePerSecond(defaultRate: number) {
  return z
    .number()
    .positive()
    .max(100)
    .default(defaultRate)
    .describe('Sends per second allowed to this channel.');
}

const channelBase = {
  /** Unique channel name (letters, digits, `_` and `-`). */
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, _ and - only (at most 40)')
    .describe('Unique channel name (letters, digits, `_` and `-`).'),
  /** Which events this channel receives; every rule given must pass, an empty filter passes everything. */
  filter: filterSchema
    .prefault({})
    .describe(
      'Which events this channel receives; every rule given must pass, an empty filter passes everything.',
    ),
  /** `immediate` sends each poll's events at once; `digest` collects them for a scheduled summary. */
  mode: z
    .enum(['immediate', 'digest'])
    .default('immediate')
    .describe(
      "`immediate` sends each poll's events at once; `digest` collects them for a scheduled summary.",
    ),
  /** Immediate channels only: hours in which the channel stays silent. */
  quietHours: quietHoursSchema
    .optional()
    .describe('Immediate channels only: hours in which the channel stays silent.'),
  /** Digest channels only: cron pattern, e.g. `30 7 * * 1-5` for weekdays 07:30. */
  schedule: z
    .string()
    .min(9)
    .optional()
    .describe('Digest channels only: cron pattern, e.g. `30 7 * * 1-5` for weekdays 07:30.'),
  /** Digest channels only: IANA time zone of the schedule. */
  timezone: ianaTimezone.default('UTC').describe('Digest channels only: IANA time zone of the schedule.'),
  /** Digest channels only: send a digest even when nothing happened in its period. */
  sendEmpty: z
    .boolean()
    .default(false)
    .describe('Digest channels only: send a digest even when nothing happened in its period.'),
  /** Delivery attempts before the job is parked. */
  attempts: z
    .number()
    .int()
    .min(1)
    .max(50)
    .default(8)
    .describe('Delivery attempts before the job is parked.'),
  /** First retry delay; doubles each attempt, with jitter. */
  backoff: duration.prefault('2s').describe('First retry delay; doubles each attempt, with jitter.'),
};

/** Slack incoming webhook: Block Kit messages with a plain-text fallback. */
const slackFields = z
  .strictObject({
    ...channelBase,
    /** Which kind of channel this is; it decides which other keys are allowed. */
    kind: z
      .literal('slack')
      .describe('Which kind of channel this is; it decides which other keys are allowed.'),
    /** Sends per second allowed to this channel. */
    ratePerSecond: ratePerSecond(1),
    /** Incoming webhook URL (secret), e.g. from the `SLACK_WEBHOOK_URL` environment variable or `webhookUrlFile`. */
    webhookUrl: secret.describe(
      'Incoming webhook URL (secret), e.g. from the `SLACK_WEBHOOK_URL` environment variable or `webhookUrlFile`.',
    ),
    /** Mentions added to each message, from config only (e.g. `<!here>`, `<@U123>`). */
    mention: z
      .string()
      .optional()
      .describe('Mentions added to each message, from config only (e.g. `<!here>`, `<@U123>`).'),
    /** Request timeout. */
    timeout: duration.prefault('10s').describe('Request timeout.'),
  })
  .describe('Slack incoming webhook: Block Kit messages with a plain-text fallback.');

const smtpFields = {
  /** SMTP URL (secret), e.g. `smtps://user:pass@mail.example.com:465`. */
  smtpUrl: secret.optional().describe('SMTP URL (secret), e.g. `smtps://user:pass@mail.example.com:465`.'),
  /** SMTP host, when no `smtpUrl` is given. */
  host: z.string().optional().describe('SMTP host, when no `smtpUrl` is given.'),
  /** SMTP port. */
  port: z.number().int().min(1).max(65_535).optional().describe('SMTP port.'),
  /** Implicit TLS (port 465); STARTTLS is used when offered otherwise. */
  secure: z
    .boolean()
    .optional()
    .describe('Implicit TLS (port 465); STARTTLS is used when offered otherwise.'),
  /** SMTP credentials. */
  auth: z
    .strictObject({
      /** SMTP user name. */
      user: z.string().describe('SMTP user name.'),
      /** SMTP password (secret), e.g. from the `SMTP_PASSWORD` environment variable or `passFile`. */
      pass: secret.describe(
        'SMTP password (secret), e.g. from the `SMTP_PASSWORD` environment variable or `passFile`.',
      ),
    })
    .optional()
    .describe('SMTP credentials.'),
  /** Sender address. */
  from: z.string().min(3).describe('Sender address.'),
  /** Recipients. */
  to: z.array(z.string().min(3)).min(1).describe('Recipients.'),
  /** Pooled SMTP connections. */
  maxConnections: z.number().int().min(1).max(20).default(2).describe('Pooled SMTP connections.'),
};

/** Email through pooled SMTP, with HTML and plain-text parts. */
const emailFields = z
  .strictObject({
    ...channelBase,
    /** Which kind of channel this is; it decides which other keys are allowed. */
    kind: z
      .literal('email')
      .describe('Which kind of channel this is; it decides which other keys are allowed.'),
    /** Sends per second allowed to this channel. */
    ratePerSecond: ratePerSecond(5),
    ...smtpFields,
  })
  .describe('Email through pooled SMTP, with HTML and plain-text parts.');

/** A JSON POST to any HTTP endpoint, signed with HMAC-SHA256 when `signingSecret` is set. */
const webhookFields = z
  .strictObject({
    ...channelBase,
    /** Which kind of channel this is; it decides which other keys are allowed. */
    kind: z
      .literal('webhook')
      .describe('Which kind of channel this is; it decides which other keys are allowed.'),
    /** Sends per second allowed to this channel. */
    ratePerSecond: ratePerSecond(10),
    /** Endpoint receiving a JSON POST (secret: URLs often carry tokens). */
    url: secret.describe('Endpoint receiving a JSON POST (secret: URLs often carry tokens).'),
    /** HMAC-SHA256 key; the signature goes in `X-Shortwatch-Signature: sha256=<hex>`. */
    signingSecret: secret
      .optional()
      .describe('HMAC-SHA256 key; the signature goes in `X-Shortwatch-Signature: sha256=<hex>`.'),
    /** Request timeout. */
    timeout: duration.prefault('10s').describe('Request timeout.'),
  })
  .describe('A JSON POST to any HTTP endpoint, signed with HMAC-SHA256 when `signingSecret` is set.');

/** One JSON line per message on standard output; for pipelines and for trying shortwatch out. */
const consoleFields = z
  .strictObject({
    ...channelBase,
    /** Which kind of channel this is; it decides which other keys are allowed. */
    kind: z
      .literal('console')
      .describe('Which kind of channel this is; it decides which other keys are allowed.'),
    /** Sends per second allowed to this channel. */
    ratePerSecond: ratePerSecond(100),
  })
  .describe('One JSON line per message on standard output; for pipelines and for trying shortwatch out.');

/** A delivery channel: one schema variant per kind. */
export const channelSchema = z.discriminatedUnion('kind', [
  slackFields,
  emailFields,
  webhookFields,
  consoleFields,
]);

/** The operator channel and its heartbeat. */
const opsSchema = z
  .strictObject({
    /** Name of the channel that receives operator notices. */
    channel: z.string().optional().describe('Name of the channel that receives operator notices.'),
    /** Cron pattern (UTC) of a heartbeat message proving the daemon and its delivery path live. */
    heartbeat: z
      .string()
      .optional()
      .describe('Cron pattern (UTC) of a heartbeat message proving the daemon and its delivery path live.'),
  })
  .describe('The operator channel and its heartbeat.');

/** HTTP endpoint for /healthz, /readyz and /metrics. */
const httpSchema = z
  .strictObject({
    /** Port; the endpoint is off when unset. */
    port: portNumber.optional().describe('Port; the endpoint is off when unset.'),
    /** Interface to bind. */
    host: z.string().default('0.0.0.0').describe('Interface to bind.'),
  })
  .describe('HTTP endpoint for /healthz, /readyz and /metrics.');

/** Log output: pino, on standard error. */
const logSchema = z
  .strictObject({
    /** Minimum level written. */
    level: z
      .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
      .default('info')
      .describe('Minimum level written.'),
    /** `json` for machines, `pretty` for a terminal; `auto` picks pretty on a TTY. */
    format: z
      .enum(['auto', 'json', 'pretty'])
      .default('auto')
      .describe('`json` for machines, `pretty` for a terminal; `auto` picks pretty on a TTY.'),
  })
  .describe('Log output: pino, on standard error.');

/** The whole shortwatch configuration file. */
export const configSchema = z
  .strictObject({
    upstream: upstreamSchema,
    redis: redisSchema.prefault({}),
    budget: budgetSchema.prefault({}),
    poll: pollSchema.prefault({}),
    /** Issuers to watch, each by upstream `id` or by `name`. */
    watchlist: z
      .array(watchEntrySchema)
      .default([])
      .describe('Issuers to watch, each by upstream `id` or by `name`.'),
    /** Where alerts go; one entry per channel, each with its own filter, mode and queue. */
    channels: z
      .array(channelSchema)
      .default([])
      .describe('Where alerts go; one entry per channel, each with its own filter, mode and queue.'),
    ops: opsSchema.prefault({}),
    http: httpSchema.prefault({}),
    log: logSchema.prefault({}),
  })
  .describe('The whole shortwatch configuration file.')
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.channels.forEach((channel, index) => {
      if (seen.has(channel.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['channels', index, 'name'],
          message: `duplicate channel name "${channel.name}"`,
        });
      }
      seen.add(channel.name);
      if (channel.kind === 'email' && !channel.smtpUrl && !channel.host) {
        ctx.addIssue({ code: 'custom', path: ['channels', index], message: 'needs smtpUrl or host' });
      }
      if (channel.mode === 'digest' && !channel.schedule) {
        ctx.addIssue({
          code: 'custom',
          path: ['channels', index, 'schedule'],
          message: 'is required for a digest channel',
        });
      }
      if (channel.mode === 'digest' && channel.quietHours) {
        ctx.addIssue({
          code: 'custom',
          path: ['channels', index, 'quietHours'],
          message: 'applies to immediate channels only',
        });
      }
    });
    const names = new Map(config.channels.map((c) => [c.name, c]));
    config.channels.forEach((channel, index) => {
      if (channel.mode === 'immediate' && channel.quietHours?.foldInto) {
        const target = names.get(channel.quietHours.foldInto);
        if (target?.mode !== 'digest') {
          ctx.addIssue({
            code: 'custom',
            path: ['channels', index, 'quietHours', 'foldInto'],
            message: `"${channel.quietHours.foldInto}" is not a digest channel`,
          });
        }
      }
    });
    if (config.ops.channel && !names.has(config.ops.channel)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ops', 'channel'],
        message: `no channel named "${config.ops.channel}"`,
      });
    }
    if (config.budget.reserve >= config.budget.perDay) {
      ctx.addIssue({
        code: 'custom',
        path: ['budget', 'reserve'],
        message: 'must be smaller than budget.perDay',
      });
    }
  });

/** The validated configuration. */
export type Config = z.output<typeof configSchema>;
/** One configured channel. */
export type ChannelConfig = z.output<typeof channelSchema>;
/** A channel's kind. */
export type ChannelKind = ChannelConfig['kind'];
/** A channel's filter. */
export type ChannelFilter = z.output<typeof filterSchema>;
/** Quiet hours of an immediate channel. */
export type QuietHours = z.output<typeof quietHoursSchema>;
/** One watchlist entry. */
export type WatchEntry = z.output<typeof watchEntrySchema>;

/** Keys whose value may instead be read from a file named by a sibling `<key>File`. */
export const FILE_SECRET_KEYS = ['apiKey', 'webhookUrl', 'smtpUrl', 'pass', 'url', 'signingSecret'] as const;
