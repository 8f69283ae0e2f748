import type { Config } from '../config/schema.js';

/** Severities of a notice's message; `resolved` follows the severity of the problem it clears. */
export type NoticeSeverity = 'info' | 'warning' | 'critical';

/**
 * The channels a notice's message is queued to: the ops channel when one is configured. Without one, a
 * critical notice (access revoked, nothing polled, deliveries parked, state lost) still reaches people:
 * every immediate channel that people read (all kinds but webhooks, whose receivers are programs; digest
 * channels only send their periods). The cost, documented in docs/operations.md: the traders' channels
 * carry operator messages, each counted against the channel's rate; warnings and infos reach nobody but
 * the log, `status` and `/readyz`. Pure.
 */
export function noticeChannels(config: Config, severity: NoticeSeverity): string[] {
  if (config.ops.channel !== undefined) return [config.ops.channel];
  if (severity !== 'critical') return [];
  return config.channels
    .filter((channel) => channel.mode === 'immediate' && channel.kind !== 'webhook')
    .map((channel) => channel.name);
}
