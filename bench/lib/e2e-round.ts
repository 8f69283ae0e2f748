import type { Scenario } from '../../src/sandbox/index.js';
import { HOLDER_NAMES } from '../../src/sandbox/names.js';
import { type Stack, slackEvents, waitFor } from '../../test/e2e/harness.js';
import { snapshotsAtCurrent } from './daemons.js';

/** What one round measured: one dataset refresh in which `changed` issuers moved. */
export interface RoundResult {
  /** Per changed issuer: sandbox's 200 answer to its positions request → first Slack post naming it, ms. */
  latenciesMs: number[];
  /** Per changed issuer: the refresh → first Slack post naming it, ms. */
  fromChangeMs: number[];
  /** Slack posts received in the round (one post may name many issuers). */
  messages: number;
  /** Distinct issuers polled a second, first to last positions answer of the round. */
  pollsPerSecond: number;
  /** First positions answer → the post that named the last changed issuer, ms. */
  completionMs: number;
}

/** Moves one position of each listed issuer (or opens one), synchronously: one refresh of the dataset. */
export function changeIssuers(scenario: Scenario, issuerIds: readonly string[]): void {
  for (const id of issuerIds) {
    const row = scenario.active(id)?.[0];
    if (row) scenario.disclose(id, row.position_holder, Math.round((row.value + 0.13) * 100) / 100);
    else scenario.disclose(id, HOLDER_NAMES[0] ?? 'Marshall Wace LLP', 0.77);
  }
}

/** `count` of the ids, evenly spaced over the list, so the changed issuers spread over the polling order. */
export function evenlySpaced(ids: readonly string[], count: number): string[] {
  const step = ids.length / Math.max(1, count);
  return Array.from({ length: Math.min(count, ids.length) }, (_, k) => ids[Math.floor(k * step)] ?? '');
}

/** The issuers a Slack post carries events of: one for an events message, each section's for a batch. */
function issuersNamed(payload: unknown): Set<string> {
  return new Set(slackEvents(payload).map((event) => event.split('|')[0] ?? ''));
}

/** The first 200 answer to each issuer's positions request from `mark` on (epoch ms, the sandbox clock). */
export function firstAnswers(stack: Stack, mark: number): Map<string, number> {
  const answered = new Map<string, number>();
  for (const record of stack.sandbox.stats.requests.slice(mark)) {
    const { operation, status, issuerId, at } = record;
    if (operation === 'positions' && status === 200 && issuerId && !answered.has(issuerId))
      answered.set(issuerId, at);
  }
  return answered;
}

/**
 * One round: changes `changed` at once, waits until every one of them was named in some Slack post, then
 * until every `watched` snapshot caught up (so the next round starts from a quiet pipeline).
 */
export async function runRound(
  stack: Stack,
  changed: readonly string[],
  watched: readonly string[],
  timeoutMs: number,
): Promise<RoundResult> {
  const { sandbox, slack } = stack;
  const requestMark = sandbox.stats.requests.length;
  let scanned = slack.posts.length;
  let messages = 0;
  const wanted = new Set(changed);
  const namedAt = new Map<string, number>();
  // Reads each post once: the wait below calls this every few milliseconds.
  const scan = () => {
    for (; scanned < slack.posts.length; scanned++) {
      const post = slack.posts[scanned];
      if (post?.status !== 200) continue;
      messages++;
      for (const id of issuersNamed(post.payload)) {
        if (wanted.has(id) && !namedAt.has(id)) namedAt.set(id, post.receivedAt.getTime());
      }
    }
    return namedAt.size === wanted.size;
  };
  const changedAt = Date.now();
  changeIssuers(sandbox.scenario, changed);
  await waitFor(`a Slack post naming each of ${changed.length} issuers`, scan, timeoutMs, 20);
  const answered = firstAnswers(stack, requestMark);
  const latenciesMs: number[] = [];
  const fromChangeMs: number[] = [];
  for (const id of changed) {
    const at = answered.get(id);
    const named = namedAt.get(id) ?? Number.NaN;
    if (at === undefined) throw new Error(`Slack named ${id} but the sandbox never answered its poll`);
    latenciesMs.push(named - at);
    fromChangeMs.push(named - changedAt);
  }
  const polls = [...answered.values()];
  const first = Math.min(...polls);
  const spanMs = Math.max(...polls) - first;
  await waitFor(
    'snapshots committed',
    async () =>
      (await snapshotsAtCurrent(stack.redis.redis, stack.prefix, sandbox.scenario, watched)) ===
      watched.length,
    60_000,
    100,
  );
  scan();
  return {
    latenciesMs,
    fromChangeMs,
    messages,
    pollsPerSecond: polls.length / Math.max(spanMs / 1000, 0.001),
    completionMs: Math.max(...namedAt.values()) - first,
  };
}
