import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { holderKey } from '../../src/positions/holder-key.js';
import { channelUrlIssues } from '../../src/preflight/channel-urls.js';
import { filterHolderReview, filterIssuerIssues } from '../../src/preflight/filter-references.js';
import { type HolderKnowledge, unjudgedSources } from '../../src/preflight/holder-sources.js';
import {
  closestHolders,
  type KnownHolder,
  mergeHolders,
  registerHolders,
} from '../../src/preflight/known-holders.js';
import type { NamedPosition, RegisterSnapshot } from '../../src/sources/types.js';
import type { Issuer } from '../../src/upstream/index.js';

const dir = mkdtempSync(join(tmpdir(), 'shortwatch-refs-'));
let files = 0;

/** A valid config whose channels are `channels`, loaded as the CLI loads it. */
function withChannels(channels: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  files += 1;
  const path = join(dir, `c${files}.yaml`);
  const config = {
    upstream: { baseUrl: 'https://api.example.com', apiKey: 'key-1' },
    watchlist: [{ id: 'ISS-1' }],
    channels,
    ...extra,
  };
  writeFileSync(path, stringify(config));
  return loadConfig(path);
}

const slack = (extra: Record<string, unknown> = {}) => ({
  name: 'desk',
  kind: 'slack',
  webhookUrl: 'https://hooks.slack.com/services/T/B/x',
  ...extra,
});

const DIRECTORY: Issuer[] = [
  { svc_issuer_id: 'ISS-1', name: 'Borealis Mining plc' },
  { svc_issuer_id: 'ISS-2', name: 'Vantage Bank plc' },
];

const KNOWN: KnownHolder[] = ['Marshall Wace LLP', 'Citadel Advisors LLC', 'D. E. Shaw & Co., L.P.'].map(
  (name) => ({ key: holderKey(name), name }),
);

describe('filterIssuerIssues', () => {
  it.each([
    ['an id', 'ISS-2'],
    ['a name, spelt another way', '  vantage   BANK plc'],
  ])('accepts %s the directory has', (_, entry) => {
    expect(filterIssuerIssues(withChannels([slack({ filter: { issuers: [entry] } })]), DIRECTORY)).toEqual(
      [],
    );
  });

  it('accepts an ISIN or a source watchlist entry while register sources are configured (known once read)', () => {
    const sources = {
      sources: [
        { name: 'afm', kind: 'afm-current', url: 'http://127.0.0.1/a.csv', watchlist: ['Signify N.V.'] },
      ],
    };
    const filter = { filter: { issuers: ['NL0000379121', 'signify n.v.'] } };
    expect(filterIssuerIssues(withChannels([slack(filter)], sources), DIRECTORY)).toEqual([]);
    // Without a source the same entries name nothing the upstream lists.
    expect(filterIssuerIssues(withChannels([slack(filter)]), DIRECTORY).map((i) => i.path)).toEqual([
      'channels[0].filter.issuers[0]',
      'channels[0].filter.issuers[1]',
    ]);
  });

  it('names a misspelt issuer of a digest filter at its key path, with the closest name', () => {
    const config = withChannels([
      slack(),
      {
        name: 'morning',
        kind: 'console',
        mode: 'digest',
        schedule: '30 7 * * 1-5',
        filter: { issuers: ['ISS-1', 'Borealis Minning plc'] },
      },
    ]);
    expect(filterIssuerIssues(config, DIRECTORY)).toEqual([
      {
        path: 'channels[1].filter.issuers[1]',
        message:
          'issuer "Borealis Minning plc" is not in the upstream\'s issuer list, so this filter never matches it; closest: Borealis Mining plc (ISS-1)',
      },
    ]);
  });

  it('judges nothing against an empty directory', () => {
    expect(filterIssuerIssues(withChannels([slack({ filter: { issuers: ['x'] } })]), [])).toEqual([]);
  });
});

describe('filterHolderReview', () => {
  it('accepts a holder by key prefix, as routing matches', () => {
    const config = withChannels([slack({ filter: { holders: ['marshall wace', 'D.E. SHAW & CO LP'] } })]);
    expect(filterHolderReview(config, KNOWN)).toEqual({ issues: [], warnings: [] });
  });

  it('refuses a misspelling with the closest holder; warns of a holder near none', () => {
    const config = withChannels([
      slack({ filter: { holders: ['Marshal Wace'], excludeHolders: ['Quantum Nowhere Fund'] } }),
    ]);
    const review = filterHolderReview(config, KNOWN);
    expect(review.issues).toEqual([
      {
        path: 'channels[0].filter.holders[0]',
        message: `holder "Marshal Wace" matches no holder in the snapshots, the event log or the registers' files; closest: Marshall Wace LLP`,
      },
    ]);
    expect(review.warnings.map((w) => w.path)).toEqual(['channels[0].filter.excludeHolders[0]']);
  });

  it('accepts an LEI and a holder of the alias table (issue 34: one holder across registers)', () => {
    const config = withChannels([slack({ filter: { holders: ['213800ZZZMWACE00LP01', 'MW Europe'] } })], {
      holders: { aliases: [{ alias: 'MW Europe', holder: 'Marshall Wace LLP' }] },
    });
    expect(filterHolderReview(config, KNOWN)).toEqual({ issues: [], warnings: [] });
    const without = withChannels([slack({ filter: { holders: ['MW Europe'] } })]);
    expect(filterHolderReview(without, KNOWN).warnings.map((w) => w.path)).toEqual([
      'channels[0].filter.holders[0]',
    ]);
  });

  it('judges nothing before any holder is stored', () => {
    const config = withChannels([slack({ filter: { holders: ['Marshal Wace'] } })]);
    expect(filterHolderReview(config, [])).toEqual({ issues: [], warnings: [] });
  });
});

/** A named position of a register read. */
const named = (holder: string, percent = 0.6): NamedPosition => ({
  holder,
  holderKey: holderKey(holder),
  percent,
  date: '2026-11-20',
});

/** An AFM read of two issuers: one holder today in each, a third in the first one's history only. */
const AFM_READ: RegisterSnapshot = {
  kind: 'afm-current',
  content: 'positions',
  rows: 4,
  namesHolders: true,
  issuers: [
    {
      key: 'NL0000379121',
      name: 'Randstad N.V.',
      positions: [named('Marshall Wace LLP')],
      history: [named('Marshall Wace LLP', 0.5), named('Qube Research & Technologies Ltd', 0.4)],
    },
    { key: 'NL0009739416', name: 'PostNL N.V.', positions: [named('Citadel Advisors LLC')] },
  ],
};

describe('the holders a register read names (issue 31: a fresh deployment checks against them)', () => {
  it("every holder of every issuer the read lists, history too, once each; a filter's misspelling is refused against them", () => {
    const known = registerHolders(AFM_READ);
    expect(known.map((h) => h.name)).toEqual([
      'Marshall Wace LLP',
      'Qube Research & Technologies Ltd',
      'Citadel Advisors LLC',
    ]);
    // The same fund from the upstream's snapshots and a register is one holder, the first name kept.
    const merged = mergeHolders([{ key: holderKey('MARSHALL WACE LLP'), name: 'MARSHALL WACE LLP' }], known);
    expect(merged.map((h) => h.name)).toEqual([
      'MARSHALL WACE LLP',
      'Qube Research & Technologies Ltd',
      'Citadel Advisors LLC',
    ]);
    const config = withChannels([slack({ filter: { holders: ['Qube Research', 'Citadell'] } })]);
    expect(filterHolderReview(config, merged).issues.map((i) => i.message)).toEqual([
      `holder "Citadell" matches no holder in the snapshots, the event log or the registers' files; closest: Citadel Advisors LLC`,
    ]);
  });

  it.each<[string, Record<string, unknown>, Omit<HolderKnowledge, 'holders'>, string | undefined]>([
    [
      "a fresh API deployment: the upstream's holders",
      {},
      { fromUpstream: 0, registers: [] },
      "the upstream's holders (none stored before the first sweep; asking would spend a request per issuer)",
    ],
    ['an API deployment that polled', {}, { fromUpstream: 12, registers: [] }, undefined],
    [
      'a register not read',
      { sources: [{ name: 'afm', kind: 'afm-current', url: 'http://127.0.0.1/a.csv' }] },
      { fromUpstream: 12, registers: [] },
      'register afm (not read)',
    ],
    [
      'a fresh deployment whose register was read',
      { sources: [{ name: 'afm', kind: 'afm-current', url: 'http://127.0.0.1/a.csv' }] },
      { fromUpstream: 0, registers: ['afm'] },
      "the upstream's holders (none stored before the first sweep; asking would spend a request per issuer)",
    ],
  ])('what could not be consulted: %s', (_, extra, knowledge, expected) => {
    const config = withChannels([slack()], extra);
    expect(unjudgedSources(config, { holders: [], ...knowledge })).toBe(expected);
  });
});

describe('closestHolders', () => {
  it.each([
    ['Citadell', ['Citadel Advisors LLC']],
    ['de shaw', ['D. E. Shaw & Co., L.P.']],
    ['Renaissance', []],
  ])('%s → %j', (entry, expected) => {
    expect(closestHolders(entry, KNOWN)).toEqual(expected);
  });
});

describe('channelUrlIssues', () => {
  it.each([
    [
      'a Slack URL that is not a URL',
      slack({ webhookUrl: 'hooks.slack.com/services/T/B/x' }),
      'channels[0].webhookUrl',
      'is not a URL',
    ],
    [
      'a Slack URL over plain http',
      slack({ webhookUrl: 'http://hooks.slack.com/services/T/B/x' }),
      'channels[0].webhookUrl',
      'must use https (http only for 127.0.0.1 or localhost)',
    ],
    [
      'a Teams URL with no path',
      { name: 't', kind: 'teams', webhookUrl: 'https://example.com' },
      'channels[0].webhookUrl',
      'has no path',
    ],
    [
      'a webhook that is not http',
      {
        name: 'w',
        kind: 'webhook',
        url: 'ftp://example.com/in',
        signingSecret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
      },
      'channels[0].url',
      'must be an http or https URL',
    ],
  ])('%s', (_, channel, path, message) => {
    expect(channelUrlIssues(withChannels([channel]))).toEqual([{ path, message }]);
  });

  it('accepts the URLs each kind can send to', () => {
    const config = withChannels([
      slack(),
      {
        name: 'w',
        kind: 'webhook',
        url: 'http://10.0.0.5:8080/in',
        signingSecret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
      },
    ]);
    expect(channelUrlIssues(config)).toEqual([]);
  });
});
