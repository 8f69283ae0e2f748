import { describe, expect, it } from 'vitest';
import { isConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { describeWatchlist, planFor, plannedSize } from '../../src/jobs/plan-for.js';
import { configIssues, directoryIssues, needsDirectory } from '../../src/preflight/preflight.js';
import type { Issuer } from '../../src/upstream/schemas.js';

// `watchlist: all`: the whole directory. The schema takes it beside the list form, and the plan is made
// for the directory's size, which only the issuer list knows.

const UPSTREAM = 'upstream: { baseUrl: "https://api.example.com", apiKey: key-1 }';

function load(yaml: string): Config {
  return parseConfig(`${UPSTREAM}\n${yaml}\n`, 'shortwatch.yaml', {}, () => '');
}

/** The config error's lines for a YAML snippet, or [] when it loads. */
function problems(yaml: string): string[] {
  try {
    load(yaml);
    return [];
  } catch (error) {
    if (isConfigError(error)) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
}

const issuers = (count: number): Issuer[] =>
  Array.from({ length: count }, (_, i) => ({ svc_issuer_id: `ISS-${i}`, name: `Issuer ${i}` }));

describe('watchlist schema', () => {
  it.each<[string, string, Config['watchlist']]>([
    ['all', 'watchlist: all', 'all'],
    [
      'a list',
      'watchlist: [{ id: ISS-1 }, { name: Acme plc, label: Acme }]',
      [{ id: 'ISS-1' }, { name: 'Acme plc', label: 'Acme' }],
    ],
    ['left out: an empty list', '', []],
  ])('reads %s', (_name, yaml, watchlist) => {
    expect(load(yaml).watchlist).toEqual(watchlist);
  });

  it.each([
    ['another word', 'watchlist: everything'],
    ['all in capitals (the form is exact)', 'watchlist: ALL'],
    ['a number', 'watchlist: 3'],
  ])('refuses %s, saying which forms there are', (_name, yaml) => {
    expect(problems(yaml)).toEqual([
      'watchlist: must be `all` (the whole directory) or a list of issuers, each by `id` or `name`',
    ]);
  });

  it('names the list entry that is wrong', () => {
    expect(problems('watchlist: [{ id: ISS-1 }, { nme: Acme }]')).toEqual([
      'watchlist: entry [1] must have `id` or `name` (and may have `label`, `isin`, `market`), nothing else',
    ]);
  });
});

describe('planning the whole directory', () => {
  const all = load('watchlist: all');

  it('plans for the directory given, and for no issuer before one is known', () => {
    expect(plannedSize(all, issuers(37))).toBe(37);
    expect(plannedSize(all, null)).toBe(0);
    expect(planFor(all, issuers(37)).summary.join(' ')).toContain('37 issuers');
    // A list's size is its own, whatever the directory.
    expect(plannedSize(load('watchlist: [{ id: ISS-1 }]'), issuers(37))).toBe(1);
  });

  it('above perDay - reserve with the gate on: planned, the hard bound raised and said', () => {
    const plan = planFor(all, issuers(2_000));
    expect(plan.gate).toBe(true);
    expect(plan.refreshesPerDay).toBe(0);
    expect(plan.summary.join(' ')).toContain('A full sweep of 2000 issuers costs more than');
    expect(plan.adjusted.some((line) => line.startsWith('poll.maxStaleness raised'))).toBe(true);
  });

  it('says where the size comes from, or that it is not known', () => {
    expect(describeWatchlist(all, { issuers: issuers(37), source: 'GET /issuers' })).toBe(
      'the whole directory (watchlist: all), 37 issuers as GET /issuers lists them; the plan follows the directory as issuers join and leave it',
    );
    expect(describeWatchlist(all, null)).toContain('whose size is not known');
    expect(describeWatchlist(load('watchlist: [{ id: ISS-1 }]'), null)).toBe('1 issuer');
  });
});

describe('preflight of watchlist: all', () => {
  it('has no name to resolve: the directory decides the size only', () => {
    const all = load('watchlist: all');
    expect(needsDirectory(all)).toBe(true);
    expect(needsDirectory(load('watchlist: [{ id: ISS-1 }]'))).toBe(false);
    expect(configIssues(all)).toEqual([]);
    const { watched, issues } = directoryIssues(all, issuers(3));
    expect(watched.map((w) => w.id)).toEqual(['ISS-0', 'ISS-1', 'ISS-2']);
    expect(issues).toEqual([]);
  });

  it('an empty directory is a problem at `watchlist`', () => {
    expect(directoryIssues(load('watchlist: all'), []).issues).toEqual([
      {
        path: 'watchlist',
        message: "is all, but the upstream's issuer list is empty: there is no issuer to watch",
      },
    ]);
  });

  it('a directory the ungated budget cannot sweep once a day is a plan problem, sized', () => {
    const ungated = load('watchlist: all\npoll: { gate: false }\nbudget: { perDay: 100, reserve: 10 }');
    expect(configIssues(ungated)).toEqual([]);
    expect(directoryIssues(ungated, issuers(90)).issues).toEqual([]);
    const { issues } = directoryIssues(ungated, issuers(91));
    expect(issues.map((i) => i.path)).toEqual(['watchlist']);
    expect(issues[0]?.message).toContain('is all, the whole directory of 91 issuers: ');
    expect(issues[0]?.message).toContain('90 a day are available to polling');
  });
});
