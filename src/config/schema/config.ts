import { z } from 'zod';
import { isLoopbackHost } from '../upstream-url.js';
import { alertsSchema } from './alerts.js';
import { budgetSchema } from './budget.js';
import { channelsSchema } from './channels.js';
import { deliverySchema } from './delivery.js';
import { holdersSchema } from './holders.js';
import { httpSchema } from './http.js';
import { logSchema } from './log.js';
import { opsSchema } from './ops.js';
import { pollSchema } from './poll.js';
import { redisSchema } from './redis.js';
import { retentionSchema } from './retention.js';
import { sourcesSchema } from './sources.js';
import { subscribersSchema } from './subscribers.js';
import { upstreamSchema } from './upstream.js';
import { watchlistSchema } from './watchlist.js';

// The sections in the order docs/configuration.md lists them.
const sections = z.strictObject({
  upstream: upstreamSchema.optional(),
  redis: redisSchema.prefault({}),
  budget: budgetSchema.prefault({}),
  poll: pollSchema.prefault({}),
  alerts: alertsSchema.prefault({}),
  watchlist: watchlistSchema,
  sources: sourcesSchema,
  holders: holdersSchema.prefault({}),
  channels: channelsSchema,
  subscribers: subscribersSchema.optional(),
  delivery: deliverySchema.prefault({}),
  ops: opsSchema.prefault({}),
  http: httpSchema.prefault({}),
  retention: retentionSchema.prefault({}),
  log: logSchema.prefault({}),
});

type Sections = z.output<typeof sections>;

function checkChannels(config: Sections, ctx: z.RefinementCtx): void {
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
}

function checkChannelReferences(config: Sections, ctx: z.RefinementCtx): void {
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
}

function checkSubscribers(config: Sections, ctx: z.RefinementCtx): void {
  const { subscribers } = config;
  if (!subscribers) return;
  const templates = [
    ['email', subscribers.email, 'email'],
    ['webhook', subscribers.webhook, 'webhook'],
    ['slack', subscribers.slack, 'slack-app'],
  ] as const;
  for (const [key, name, kind] of templates) {
    if (name === undefined) continue;
    const channel = config.channels.find((c) => c.name === name);
    if (channel?.kind !== kind)
      ctx.addIssue({
        code: 'custom',
        path: ['subscribers', key],
        message: `"${name}" is not a ${kind} channel`,
      });
  }
  if (!subscribers.publicUrl && !config.http.publicUrl) {
    ctx.addIssue({
      code: 'custom',
      path: ['subscribers', 'publicUrl'],
      message: 'is required (or http.publicUrl): the links in subscriber messages need an address',
    });
  }
  if (config.http.port === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['http', 'port'],
      message: 'is required by `subscribers`: their preference and unsubscribe pages are served on it',
    });
  }
  const linkHost = subscribers.publicUrl ? new URL(subscribers.publicUrl).hostname : undefined;
  const served = [
    config.http.publicUrl ? new URL(config.http.publicUrl).hostname : '',
    ...config.http.allowedHosts.map((entry) => entry.split(':')[0]),
  ];
  if (linkHost && !isLoopbackHost(linkHost) && !served.includes(linkHost)) {
    ctx.addIssue({
      code: 'custom',
      path: ['subscribers', 'publicUrl'],
      message: `names ${linkHost}, which the HTTP endpoint does not serve: add it to http.allowedHosts (or make it http.publicUrl)`,
    });
  }
}

function checkSources(config: Sections, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  config.sources.forEach((source, index) => {
    if (seen.has(source.name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['sources', index, 'name'],
        message: `duplicate source name "${source.name}"`,
      });
    }
    seen.add(source.name);
  });
}

/**
 * Without `upstream` shortwatch reads only the registers of `sources`: the API's `watchlist` has nothing
 * to poll it through, and a config with neither watches nothing.
 */
function checkUpstream(config: Sections, ctx: z.RefinementCtx): void {
  if (config.upstream !== undefined) return;
  if (config.sources.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['upstream'],
      message: 'nothing to watch: set upstream or sources',
    });
  } else if (config.watchlist === 'all' || config.watchlist.length > 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['upstream'],
      message:
        "is required by `watchlist` (its issuers are polled through the upstream API); without an upstream, leave `watchlist` out and name issuers in each source's `watchlist`",
    });
  }
}

function checkBudget(config: Sections, ctx: z.RefinementCtx): void {
  if (config.budget.reserve >= config.budget.perDay) {
    ctx.addIssue({
      code: 'custom',
      path: ['budget', 'reserve'],
      message: 'must be smaller than budget.perDay',
    });
  }
}

/** The whole config file: its sections, then the rules that span several keys. */
export const configSchema = sections
  .describe('The whole shortwatch configuration file.')
  .superRefine((config, ctx) => {
    checkChannels(config, ctx);
    checkChannelReferences(config, ctx);
    checkBudget(config, ctx);
    checkSources(config, ctx);
    checkSubscribers(config, ctx);
    checkUpstream(config, ctx);
  });

/** The validated configuration. */
export type Config = z.output<typeof configSchema>;
