import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { diffPositions } from '../../src/positions/diff.js';
import type { PositionEvent, Snapshot } from '../../src/positions/types.js';
import { matchFilter } from '../../src/routing/filter.js';
import { issuerMatches } from '../../src/routing/match-keys.js';
import { createScenario } from '../../src/sandbox/index.js';

// The README's dry run: config/example.yaml as shipped, the variables its step 3 exports, against the
// sandbox's default world (`shortwatch sandbox`: seed 1, 12 issuers). Polled after each of the world's
// first ten steps, every channel of the example must be given something to send.

const example = readFileSync(new URL('../../config/example.yaml', import.meta.url), 'utf8');
const DRY_RUN = {
  SHORTWATCH_UPSTREAM_URL: 'http://127.0.0.1:8080',
  SHORTWATCH_API_KEY: 'sandbox-key',
  SLACK_WEBHOOK_URL: 'http://127.0.0.1:9/slack',
  SMTP_URL: 'smtp://127.0.0.1:1025',
  SHORTWATCH_DIGEST_SCHEDULE: '*/30 * * * * *',
  SHORTWATCH_BUDGET_PER_DAY: '20000',
  SHORTWATCH_GATE_INTERVAL: '10s',
};
const STEPS = 10;

/** Every event of the watched issuers when each of the first `STEPS` steps is polled. */
function dryRunEvents(config: ReturnType<typeof parseConfig>): PositionEvent[] {
  const scenario = createScenario({ seed: 1, issuers: 12 });
  const entries = Array.isArray(config.watchlist) ? config.watchlist : [];
  const watched = scenario
    .issuers()
    .filter((i) =>
      entries.some((e) => issuerMatches('id' in e ? e.id : e.name, { id: i.svc_issuer_id, name: i.name })),
    );
  const snapshots = new Map<string, Snapshot | null>(watched.map((i) => [i.svc_issuer_id, null]));
  const events: PositionEvent[] = [];
  for (let step = 0; step <= STEPS; step++) {
    if (step > 0) scenario.step();
    for (const issuer of watched) {
      const result = diffPositions({
        previous: snapshots.get(issuer.svc_issuer_id) ?? null,
        issuer: { id: issuer.svc_issuer_id, name: issuer.name },
        rows: scenario.active(issuer.svc_issuer_id) ?? [],
        lastUpdated: null,
        now: new Date(Date.UTC(2026, 0, 5, 12, step)),
        thresholds: config.poll.thresholds,
        onFirstSeen: config.poll.onFirstSeen,
      });
      snapshots.set(issuer.svc_issuer_id, result.next);
      events.push(...result.events);
    }
  }
  return events;
}

describe('the README dry run against the sandbox', () => {
  const config = parseConfig(example, 'config/example.yaml', DRY_RUN);
  const events = dryRunEvents(config);

  it('watches the three issuers of the default world the example names', () => {
    expect(Array.isArray(config.watchlist) ? config.watchlist.length : 0).toBe(3);
    expect(new Set(events.map((e) => e.issuer.id)).size).toBeGreaterThan(0);
  });

  it.each(['desk', 'holders-alert', 'daily-digest'])('%s is given an event within ten steps', (name) => {
    const channel = config.channels.find((c) => c.name === name);
    if (!channel) throw new Error(`no channel ${name}`);
    expect(events.filter((event) => matchFilter(event, channel.filter).pass).length).toBeGreaterThan(0);
  });

  it('the digest runs every 30 s in the dry run, weekdays 07:30 otherwise', () => {
    expect(config.channels.find((c) => c.name === 'daily-digest')?.schedule).toBe('*/30 * * * * *');
    const shipped = parseConfig(example, 'config/example.yaml', {
      ...DRY_RUN,
      SHORTWATCH_DIGEST_SCHEDULE: '',
    });
    expect(shipped.channels.find((c) => c.name === 'daily-digest')?.schedule).toBe('30 7 * * 1-5');
  });
});
