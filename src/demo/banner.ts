import type { ChannelConfig } from '../config/schema.js';
import { describeFilter } from '../routing/describe-filter.js';

/** What the banner tells: what runs where, and where to look. */
export interface BannerInfo {
  sandboxUrl: string;
  issuers: number;
  stepEveryMs: number;
  caps: { perMinute: number; perDay: number };
  gateEveryMs: number;
  slackUrl: string;
  smtp: string;
  redis: string;
  /** True when the demo started its own redis-server. */
  redisStarted: boolean;
  prefix: string;
  configFile: string;
  channels: readonly ChannelConfig[];
  /** `ops.channel`: notices only. */
  opsChannel?: string | undefined;
  out: string;
  durationMs?: number;
  /** The web console's address, when it started. */
  consoleUrl?: string;
  /** Set by `--chaos`: the modes the sandbox cycles through, and when. */
  chaos?: { modes: readonly string[]; startAfterMs: number; phaseMs: number };
}

/** One channel in words: name, kind, mode and filter. */
export function describeChannel(channel: ChannelConfig, opsChannel?: string): string {
  const kind = channel.kind === 'slack' ? 'Slack' : channel.kind;
  const mode =
    channel.mode === 'digest' ? `${kind} digest on "${channel.schedule ?? '?'}" (${channel.timezone})` : kind;
  // Routing never sends the ops channel an event, whatever its filter says.
  const gets = channel.name === opsChannel ? 'operator notices only' : describeFilter(channel.filter);
  return `${channel.name} (${mode}): ${gets}`;
}

const count = new Intl.NumberFormat('en-US');
const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

function chaosLines(chaos: BannerInfo['chaos']): string[] {
  if (!chaos) return [];
  return [
    `  chaos     the sandbox misbehaves in turn, from ${seconds(chaos.startAfterMs)} on, ${seconds(chaos.phaseMs)} a phase; lines marked "chaos" say how:`,
    `              ${chaos.modes.join(', ')}`,
  ];
}

/** The lines printed before the first alert. */
export function bannerLines(info: BannerInfo): string[] {
  const redis = info.redisStarted ? `${info.redis} (a redis-server started for the demo)` : info.redis;
  const stop = info.durationMs
    ? `It stops by itself after ${seconds(info.durationMs)}, or on Ctrl-C.`
    : 'Ctrl-C stops everything and removes the demo keys.';
  return [
    'shortwatch demo: a local simulation; nothing reaches the real service, Slack or a mail server.',
    `  upstream  sandbox at ${info.sandboxUrl}: ${info.issuers} issuers, the data changes every ${seconds(info.stepEveryMs)}`,
    `            caps raised to ${count.format(info.caps.perMinute)}/min and ${count.format(info.caps.perDay)}/day on both sides, so the gate runs every ${seconds(info.gateEveryMs)}`,
    `  slack     stand-in at ${info.slackUrl}`,
    `  smtp      local server at ${info.smtp}`,
    `  redis     ${redis}, keys under prefix ${info.prefix} (removed on exit)`,
    ...(info.consoleUrl
      ? [`  console   ${info.consoleUrl} (the web console: issuers, charts, events, deliveries, mutes)`]
      : []),
    `  daemon    in this process, with ${info.configFile}; channels:`,
    ...info.channels.map((channel) => `              - ${describeChannel(channel, info.opsChannel)}`),
    ...chaosLines(info.chaos),
    `Look in ${info.out}/: slack/*.json (payloads), email/*.eml + *.html (alerts), digest/*.eml + *.html (digests).`,
    `The first poll is a silent baseline; alerts follow the data's first change. ${stop}`,
    '',
  ];
}
