import { renderEmail } from '../src/channels/email/index.js';
import { renderSlack } from '../src/channels/slack/index.js';
import type { ChannelConfig } from '../src/config/schema.js';
import { diffPositions, holderKey, type PositionEvent, type Snapshot } from '../src/positions/index.js';
import { routeEvents } from '../src/routing/index.js';
import { benchChannels } from './lib/channels-fixture.js';
import { type IssuerFixture, positionsFixture } from './lib/positions-fixture.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { formatSpread, type Spread, spread } from './lib/stats.js';

const ISSUERS = 1000;
const HOLDERS = 50;
const RATE = 0.03;
const THRESHOLDS = [0.5, 1, 2, 5];
const NOW = new Date('2026-01-06T12:00:00Z');

interface Prepared {
  fixture: IssuerFixture;
  previous: Snapshot;
}

function prepare(fixtures: IssuerFixture[]): Prepared[] {
  return fixtures.map((fixture) => ({
    fixture,
    previous: diffPositions({
      previous: null,
      issuer: fixture.issuer,
      rows: fixture.before,
      lastUpdated: '2026-01-05T17:30:00Z',
      now: new Date('2026-01-05T18:00:00Z'),
      thresholds: THRESHOLDS,
      onFirstSeen: 'baseline',
    }).next,
  }));
}

function diffOne(p: Prepared): PositionEvent[] {
  return diffPositions({
    previous: p.previous,
    issuer: p.fixture.issuer,
    rows: p.fixture.after,
    lastUpdated: '2026-01-06T17:30:00Z',
    now: NOW,
    thresholds: THRESHOLDS,
    onFirstSeen: 'baseline',
  }).events;
}

/** Pure diff of every issuer: events found and the time taken. */
function runDiff(prepared: Prepared[]): { events: number; ms: number } {
  const t0 = performance.now();
  let events = 0;
  for (const p of prepared) events += diffOne(p).length;
  return { events, ms: performance.now() - t0 };
}

/** Diff, route to every channel, render each immediate group, then render each digest once. */
function runPipeline(
  prepared: Prepared[],
  channels: ChannelConfig[],
): { events: number; ms: number; renders: number; chars: number } {
  const kinds = new Map(channels.map((c) => [c.name, c.kind]));
  const staged = new Map<string, PositionEvent[]>();
  const t0 = performance.now();
  let events = 0;
  let renders = 0;
  let chars = 0;
  for (const p of prepared) {
    const found = diffOne(p);
    events += found.length;
    if (found.length === 0) continue;
    for (const group of routeEvents(found, channels, [], NOW).groups) {
      if (group.disposition.action === 'stage') {
        const list = staged.get(group.disposition.digest) ?? [];
        list.push(...group.events);
        staged.set(group.disposition.digest, list);
        continue;
      }
      const message = { type: 'events' as const, issuer: group.issuer, events: group.events };
      if (kinds.get(group.channel) === 'slack') {
        for (const payload of renderSlack(message)) chars += payload.text.length;
      } else {
        chars += renderEmail(message, { timezone: 'Europe/London' }).html.length;
      }
      renders++;
    }
  }
  for (const [, list] of staged) {
    const digest = {
      type: 'digest' as const,
      period: { from: '2026-01-05T07:30:00Z', to: NOW.toISOString(), timezone: 'Europe/London' },
      events: list,
    };
    chars += renderEmail(digest, { timezone: 'Europe/London' }).html.length;
    renders++;
  }
  return { events, ms: performance.now() - t0, renders, chars };
}

interface Figures {
  eventsPerSecond: Spread;
  usPerHolder: Spread;
  msPerRun: Spread;
}

function figuresOf(runs: { events: number; ms: number }[], holders: number): Figures {
  return {
    eventsPerSecond: spread(runs.map((r) => r.events / (r.ms / 1000))),
    usPerHolder: spread(runs.map((r) => (r.ms * 1000) / holders)),
    msPerRun: spread(runs.map((r) => r.ms)),
  };
}

/** Diff and routing throughput on 1,000 issuers x 50 holders with 3% changed. */
export const diffThroughput: Benchmark = {
  name: 'diff-throughput',
  summary: 'events per second and microseconds per holder: pure diff, and diff + routing + rendering',
  async run(options: BenchOptions): Promise<BenchReport> {
    const repeats = options.quick ? 3 : 15;
    const fixtures = positionsFixture({ issuers: ISSUERS, holders: HOLDERS, rate: RATE, seed: 42 });
    const prepared = prepare(fixtures);
    const channels = benchChannels();
    const holders = prepared.reduce(
      (sum, p) =>
        sum +
        new Set([
          ...Object.keys(p.previous.positions),
          ...p.fixture.after.map((r) => holderKey(r.position_holder)),
        ]).size,
      0,
    );
    // Warm-up: let the JIT settle before timing.
    runDiff(prepared);
    runPipeline(prepared, channels);
    const diffRuns = [];
    const pipelineRuns = [];
    for (let i = 0; i < repeats; i++) {
      diffRuns.push(runDiff(prepared));
      pipelineRuns.push(runPipeline(prepared, channels));
    }
    options.progress(`diff-throughput: ${repeats} runs done`);
    const diff = figuresOf(diffRuns, holders);
    const pipeline = figuresOf(pipelineRuns, holders);
    const events = diffRuns[0]?.events ?? 0;
    const last = pipelineRuns.at(-1);
    const row = (name: string, f: Figures) => [
      name,
      formatSpread(f.eventsPerSecond, 0),
      formatSpread(f.usPerHolder, 2),
      formatSpread(f.msPerRun, 1),
    ];
    return {
      title: 'diff and routing throughput',
      scale: [
        `${ISSUERS} issuers x ${HOLDERS} holders (${holders} holder keys counted), ${RATE * 100}% of positions changed: ${events} events a run.`,
        `${repeats} timed runs after one warm-up, one process, single-threaded. Channels: Slack feed (minValue 0.5), immediate email (minValue 1, minDelta 0.1), daily email digest.`,
      ],
      tables: [
        {
          title: 'Median over runs (range)',
          columns: ['stage', 'events/s', 'us/holder', 'ms/run'],
          rows: [
            row('pure diff (diffPositions)', diff),
            row('diff + routeEvents + renderSlack/renderEmail', pipeline),
          ],
        },
      ],
      notes: [
        `One pipeline run renders ${last?.renders ?? 0} messages (${Math.round((last?.chars ?? 0) / 1024)} KiB of Slack text and email HTML), the digest once over all staged events.`,
        'Each run diffs all 1,000 issuers against their previous snapshots, as one full sweep would; no I/O.',
      ],
      data: {
        issuers: ISSUERS,
        holders: HOLDERS,
        holderKeys: holders,
        rate: RATE,
        events,
        repeats,
        diff,
        pipeline,
        renders: last?.renders,
        chars: last?.chars,
      },
    };
  },
};
