import { checkWebhookUrl } from '../channels/slack/webhook-url.js';
import type { ConfigIssue } from '../config/config-error.js';
import type { ChannelConfig, Config } from '../config/schema.js';
import type { Secret } from '../config/secret.js';
import { UnresolvedSecret } from '../config/unresolved-secret.js';

// A channel whose URL cannot be sent to parks every message it is given: the send fails the same way
// each time. `start` refuses it as `check` does, rather than run for days delivering nothing.

/** The URL key of each kind that posts to one, and the rule its value must meet. */
function urlOf(channel: ChannelConfig): { key: string; url: Secret; webhook: boolean } | undefined {
  switch (channel.kind) {
    case 'slack':
    case 'teams':
      return { key: 'webhookUrl', url: channel.webhookUrl, webhook: true };
    case 'webhook':
      return { key: 'url', url: channel.url, webhook: false };
    default:
      return undefined;
  }
}

/** A Slack or Teams incoming webhook, by the rule their senders apply before each send. */
function webhookProblem(raw: string): string | undefined {
  const check = checkWebhookUrl(raw);
  return check.ok ? undefined : check.problem;
}

/** A generic webhook endpoint: any http(s) URL (receivers on private networks are common). */
function endpointProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? undefined : 'must be an http or https URL';
}

/**
 * Each channel URL that does not parse, or breaks its kind's rule (Slack and Teams: https, http only to
 * this machine, a path, no credentials), at its key path. The value itself is never quoted: it is a
 * secret. A secret that could not be read is reported by the secrets check, not here. Pure.
 */
export function channelUrlIssues(config: Config): ConfigIssue[] {
  return config.channels.flatMap((channel, index) => {
    const found = urlOf(channel);
    if (found === undefined || found.url instanceof UnresolvedSecret) return [];
    const raw = found.url.reveal();
    const problem = found.webhook ? webhookProblem(raw) : endpointProblem(raw);
    return problem === undefined ? [] : [{ path: `channels[${index}].${found.key}`, message: problem }];
  });
}
