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

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour)');
const weekday = z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
const percent = z.number().finite().min(0).max(100);

/** The upstream short-position service. */
const upstreamSchema = z.strictObject({
  /** Base URL of the service, without a trailing slash. */
  baseUrl: z.url(),
  /** Bearer API key. Use `${SHORTWATCH_API_KEY}` or `apiKeyFile`. */
  apiKey: secret,
  /** Time allowed for the response headers and for the body, each. */
  timeout: duration.prefault('15s'),
  /** Largest response body accepted, in bytes. */
  maxBodyBytes: z
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  /** Retries of 5xx, timeouts and network errors (never 4xx). */
  retries: z.number().int().min(0).max(10).default(2),
  /** First retry delay; doubles each time, with full jitter. */
  retryDelay: duration.prefault('500ms'),
});

/** Redis, shared by every shortwatch process. */
const redisSchema = z.strictObject({
  /** Redis URL; credentials in it are treated as secret. */
  url: secret.prefault('redis://127.0.0.1:6379'),
  /** Key prefix for every key and queue; lets several deployments share one Redis. */
  prefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .default('shortwatch'),
});

/** The plan's request caps, shared by every process through Redis. */
const budgetSchema = z.strictObject({
  /** Requests allowed per minute window (UTC-aligned). */
  perMinute: z.number().int().positive().default(100),
  /** Requests allowed per day window (UTC-aligned). */
  perDay: z.number().int().positive().default(1000),
  /** Daily requests kept for interactive CLI commands; polling never spends them. */
  reserve: z.number().int().min(0).default(50),
  /** Length of the short window; shorten only for tests and benchmarks. */
  minuteWindow: duration.prefault('1m'),
  /** Length of the long window; shorten only for tests and benchmarks. */
  dayWindow: duration.prefault('1d'),
});

/** How often the watchlist is looked at. */
const pollSchema = z.strictObject({
  /** Use the issuer list's `last_updated` as a gate: poll issuers only when the dataset moved. */
  gate: z.boolean().default(true),
  /** How often the gate (one GET /issuers) is checked; raised by the planner when the budget needs it. */
  gateInterval: duration.prefault('2m'),
  /** Sweep interval when the gate is off; the planner raises it to fit the daily budget. */
  interval: duration.prefault('30m'),
  /** Poll every issuer at least this often even when `last_updated` has not moved. */
  maxStaleness: duration.prefault('6h'),
  /** Poll jobs run at once in each process. */
  concurrency: z.number().int().min(1).max(64).default(4),
  /** First observation of an issuer: `baseline` (silent) or `alert` (every position is `opened`). */
  onFirstSeen: z.enum(['baseline', 'alert']).default('baseline'),
  /** Position thresholds (%) whose crossing is reported on each event. */
  thresholds: z.array(percent).default([0.5, 1, 2, 5]),
  /** Fetch `status=all` to add the final disclosed value to `closed` events when the budget has room. */
  enrichClosed: z.boolean().default(true),
  /** Events kept per issuer for `shortwatch events`. */
  eventsKept: z.number().int().min(0).max(10_000).default(200),
});

/** One watched issuer, by upstream id or by name. */
const watchEntrySchema = z.union([
  z.strictObject({ id: z.string().min(1), label: z.string().optional() }),
  z.strictObject({ name: z.string().min(1), label: z.string().optional() }),
]);

/** Which events a channel receives. Every list is optional; an empty filter passes everything. */
const filterSchema = z.strictObject({
  /** Issuer ids or names; default: every watched issuer. */
  issuers: z.array(z.string().min(1)).optional(),
  /** Holder names matched by holder key (spelling-insensitive). */
  holders: z.array(z.string().min(1)).optional(),
  /** Holder names never sent to this channel. */
  excludeHolders: z.array(z.string().min(1)).optional(),
  /** Event kinds to send. */
  kinds: z.array(z.enum(['opened', 'increased', 'decreased', 'closed'])).optional(),
  /** Minimum of the larger of the old and new value, in %. */
  minValue: percent.optional(),
  /** Minimum absolute change, in percentage points. */
  minDelta: percent.optional(),
  /** Send only events whose position crosses one of these values (%), up or down. */
  thresholds: z.array(percent).optional(),
  /** Send only events whose issuer total disclosed short crosses one of these values (%). */
  issuerTotalThresholds: z.array(percent).optional(),
});

/** Hours in which an immediate channel stays silent. */
const quietHoursSchema = z.strictObject({
  /** Days on which quiet hours apply; default every day. */
  days: z.array(weekday).default(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']),
  /** Start of the quiet period, local time (may be after `end`, spanning midnight). */
  start: clockTime,
  /** End of the quiet period, local time. */
  end: clockTime,
  /** IANA time zone of `start` and `end`. */
  timezone: ianaTimezone,
  /** Name of a digest channel to fold quiet events into; default: deliver them when quiet hours end. */
  foldInto: z.string().optional(),
});

const channelBase = {
  /** Unique channel name (letters, digits, `_` and `-`). */
  name: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, _ and - only (at most 40)'),
  /** Which events this channel receives. */
  filter: filterSchema.prefault({}),
  /** Sends per second allowed to this channel. */
  ratePerSecond: z.number().positive().max(100).optional(),
  /** `immediate` sends each poll's events at once; `digest` collects them for a scheduled summary. */
  mode: z.enum(['immediate', 'digest']).default('immediate'),
  /** Immediate channels only: hours in which the channel stays silent. */
  quietHours: quietHoursSchema.optional(),
  /** Digest channels only: cron pattern, e.g. `30 7 * * 1-5` for weekdays 07:30. */
  schedule: z.string().min(9).optional(),
  /** Digest channels only: IANA time zone of the schedule. */
  timezone: ianaTimezone.default('UTC'),
  /** Digest channels only: send a digest even when nothing happened in its period. */
  sendEmpty: z.boolean().default(false),
  /** Delivery attempts before the job is parked. */
  attempts: z.number().int().min(1).max(50).default(8),
  /** First retry delay; doubles each attempt, with jitter. */
  backoff: duration.prefault('2s'),
};

const slackFields = z.strictObject({
  ...channelBase,
  kind: z.literal('slack'),
  /** Incoming webhook URL (secret): `${SLACK_WEBHOOK_URL}` or `webhookUrlFile`. */
  webhookUrl: secret,
  /** Mentions added to each message, from config only (e.g. `<!here>`, `<@U123>`). */
  mention: z.string().optional(),
  /** Request timeout. */
  timeout: duration.prefault('10s'),
});

const smtpFields = {
  /** SMTP URL (secret), e.g. `smtps://user:pass@mail.example.com:465`. */
  smtpUrl: secret.optional(),
  /** SMTP host, when no `smtpUrl` is given. */
  host: z.string().optional(),
  /** SMTP port. */
  port: z.number().int().min(1).max(65_535).optional(),
  /** Implicit TLS (port 465); STARTTLS is used when offered otherwise. */
  secure: z.boolean().optional(),
  /** SMTP credentials. */
  auth: z.strictObject({ user: z.string(), pass: secret }).optional(),
  /** Sender address. */
  from: z.string().min(3),
  /** Recipients. */
  to: z.array(z.string().min(3)).min(1),
  /** Pooled SMTP connections. */
  maxConnections: z.number().int().min(1).max(20).default(2),
};

const emailFields = z.strictObject({ ...channelBase, kind: z.literal('email'), ...smtpFields });

const webhookFields = z.strictObject({
  ...channelBase,
  kind: z.literal('webhook'),
  /** Endpoint receiving a JSON POST (secret: URLs often carry tokens). */
  url: secret,
  /** HMAC-SHA256 key; the signature goes in `X-Shortwatch-Signature: sha256=<hex>`. */
  signingSecret: secret.optional(),
  /** Request timeout. */
  timeout: duration.prefault('10s'),
});

const consoleFields = z.strictObject({
  ...channelBase,
  kind: z.literal('console'),
});

/** A delivery channel: one schema variant per kind. */
export const channelSchema = z.discriminatedUnion('kind', [
  slackFields,
  emailFields,
  webhookFields,
  consoleFields,
]);

/** The operator channel and its heartbeat. */
const opsSchema = z.strictObject({
  /** Name of the channel that receives operator notices. */
  channel: z.string().optional(),
  /** Cron pattern (UTC) of a heartbeat message proving the daemon and its delivery path live. */
  heartbeat: z.string().optional(),
});

/** HTTP endpoint for /healthz, /readyz and /metrics. */
const httpSchema = z.strictObject({
  /** Port; the endpoint is off when unset. */
  port: z.number().int().min(0).max(65_535).optional(),
  /** Interface to bind. */
  host: z.string().default('0.0.0.0'),
});

const logSchema = z.strictObject({
  /** Minimum level written. */
  level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  /** `json` for machines, `pretty` for a terminal; `auto` picks pretty on a TTY. */
  format: z.enum(['auto', 'json', 'pretty']).default('auto'),
});

/** The whole shortwatch configuration file. */
export const configSchema = z
  .strictObject({
    upstream: upstreamSchema,
    redis: redisSchema.prefault({}),
    budget: budgetSchema.prefault({}),
    poll: pollSchema.prefault({}),
    watchlist: z.array(watchEntrySchema).default([]),
    channels: z.array(channelSchema).default([]),
    ops: opsSchema.prefault({}),
    http: httpSchema.prefault({}),
    log: logSchema.prefault({}),
  })
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
