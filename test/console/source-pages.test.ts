import { describe, expect, it } from 'vitest';
import { type SourceIssuerRow, sourceIssuerRow, watchedRows } from '../../src/console/data/source-issuers.js';
import type { SourceView } from '../../src/console/data/source-views.js';
import { deltaText, fromText, kindText, originTags, toText } from '../../src/console/pages/event-cells.js';
import { renderIssuer } from '../../src/console/pages/issuer.js';
import { renderSourceIssuer, type SourceIssuerData } from '../../src/console/pages/source-issuer.js';
import { healthText, renderSources } from '../../src/console/pages/sources.js';
import { paths } from '../../src/console/paths.js';
import { findRoute } from '../../src/console/routes.js';
import type { SourceStatus } from '../../src/jobs/registers/source-status.js';
import { makeEvent } from '../routing/events.js';
import { eventsBetween, issuer, named, read } from './register-reads.js';

const HOSTILE_ISSUER = 'Björn <b>&amp; "Söner" AB';
const HOSTILE_HOLDER = `O'Brien & <script>alert(1)</script> Capital`;
const SWEDISH = { namesHolders: true, threshold: 0.1 };
const NOW = Date.parse('2026-09-16T10:00:00Z');
const LEI = 'lei:549300ZVBGRRZLBVGC35';

describe('sourceIssuerRow and watchedRows: what the sources page lists of a kept read', () => {
  const holders = [named('A Fund', 0.9, '2026-09-01'), named('B Fund', 0.6, '2026-09-02')];
  it.each<[string, boolean, number, Partial<SourceIssuerRow>]>([
    [
      'a register naming holders, summing from 0.1%: the sum and what lies below',
      true,
      0.1,
      { named: { count: 2, sum: 1.5 }, below: 2.5 },
    ],
    [
      'a register naming holders, summing from 0.5% as they are named: no figure below',
      true,
      0.5,
      { named: { count: 2, sum: 1.5 } },
    ],
    ['a register naming none: no figure below', false, 0.1, { named: { count: 2, sum: 1.5 } }],
  ])('%s', (_, namesHolders, threshold, expected) => {
    const row = sourceIssuerRow(
      issuer('SE1', 'X', { percent: 4, date: '2026-09-02', threshold }, holders),
      namesHolders,
    );
    expect(row).toEqual({
      key: 'SE1',
      name: 'X',
      aggregate: { percent: 4, date: '2026-09-02', thresholdPercent: threshold },
      ...expected,
    });
  });

  it('floors what lies below at 0: an aggregate older than the named positions may sum to less', () => {
    const row = sourceIssuerRow(
      issuer('SE1', 'X', { percent: 1, date: '2026-09-02', threshold: 0.1 }, holders),
      true,
    );
    expect(row.below).toBe(0);
  });

  it('keeps the watched issuers by ISIN or name, largest aggregate first, then largest named sum', () => {
    const snapshot = read(
      [
        issuer('SE1', 'Small AB', { percent: 0.3, date: '2026-09-01', threshold: 0.1 }),
        issuer('SE2', 'Big AB', { percent: 5, date: '2026-09-01', threshold: 0.1 }),
        issuer('SE3', 'Named Only AB', undefined, holders),
        issuer('SE4', 'Not Watched AB', { percent: 9, date: '2026-09-01', threshold: 0.1 }),
      ],
      SWEDISH,
    );
    expect(watchedRows(snapshot, 'all').map((r) => r.key)).toEqual(['SE4', 'SE2', 'SE1', 'SE3']);
    expect(watchedRows(snapshot, ['SE1', 'big ab', 'NAMED ONLY AB']).map((r) => r.key)).toEqual([
      'SE2',
      'SE1',
      'SE3',
    ]);
  });
});

function status(state: SourceStatus['state'], reason: string | null = null): SourceStatus {
  return {
    name: 'fi',
    kind: 'se-fi-aggregate',
    state,
    reason,
    lastGoodAt: state === 'never' ? null : '2026-09-16T09:00:00.000Z',
  };
}

function view(state: SourceStatus['state'] = 'read', reason: string | null = null): SourceView {
  const kept = read(
    [
      issuer(LEI, HOSTILE_ISSUER, { percent: 2.05, date: '2026-09-12', threshold: 0.1 }, [
        named(HOSTILE_HOLDER, 0.8, '2026-09-10'),
      ]),
      issuer('SE0000108227', 'SKF', { percent: 4.87, date: '2026-09-12', threshold: 0.1 }),
    ],
    SWEDISH,
  );
  return {
    config: {
      name: 'fi',
      kind: 'se-fi-aggregate',
      url: 'https://www.fi.se/x',
      interval: 3_600_000,
      watchlist: 'all',
    },
    status: status(state, reason),
    kept: { at: '2026-09-16T09:00:00.000Z', snapshot: kept },
    watched: watchedRows(kept, 'all'),
  };
}

describe('the sources page', () => {
  it.each<[SourceStatus['state'], string | null, RegExp]>([
    ['read', null, /class="ok">read</],
    [
      'not-read',
      'html-page: an HTML page, not the register',
      /not read<\/span><br><span class="muted">html-page: an HTML page/,
    ],
    [
      'stale',
      'truncated: cut off',
      /stale<\/span>.*no good read for three intervals; last: truncated: cut off/,
    ],
    ['never', null, /never read/],
  ])('tells a source %s', (state, reason, shown) => {
    expect(healthText(status(state, reason)).value).toMatch(shown);
    expect(renderSources([view(state, reason)], NOW).value).toMatch(shown);
  });

  it('lists each source with its register, counts and its watched issuers linked, names escaped', () => {
    const page = renderSources([view()], NOW).value;
    expect(page).toContain('Finansinspektionen (Sweden): aggregated net short positions');
    expect(page).toContain('<td class="num">2</td><td class="num">2</td>');
    expect(page).toContain(
      `<a href="/sources/fi/lei%3A549300ZVBGRRZLBVGC35">Björn &lt;b&gt;&amp;amp; &quot;Söner&quot; AB</a>`,
    );
    // The aggregate column names its threshold; SKF (4.87%) before the smaller one.
    expect(page).toContain('<th class="num">Aggregate of positions from 0.1%</th>');
    expect(page.indexOf('SKF')).toBeLessThan(page.indexOf('Björn'));
    expect(page).not.toMatch(/<b>|<script/);
  });

  it('lists a scope list as shares in scope, with no aggregate column', () => {
    const scope = read(
      [issuer('GB0009223206', 'Smith & Nephew, plc'), issuer('GB00B1VQ6H25', 'YOUGOV PLC')],
      {
        namesHolders: false,
        threshold: 0.2,
      },
    );
    const list = { ...scope, kind: 'uk-reportable-shares' as const, content: 'scope' as const };
    const v = view();
    const rsl: SourceView = {
      ...v,
      config: { ...v.config, name: 'rsl', kind: 'uk-reportable-shares' },
      kept: { at: '2026-09-16T09:00:00.000Z', snapshot: list },
      watched: watchedRows(list, 'all'),
    };
    const page = renderSources([rsl], NOW).value;
    expect(page).toContain('<h2>rsl: watched issuers</h2>');
    expect(page).toContain('<th>Share in scope</th><th>Key</th>');
    expect(page).toContain('<a href="/sources/rsl/GB0009223206">Smith &amp; Nephew, plc</a>');
    expect(page).not.toContain('Aggregate');
  });

  it('says when no source is configured', () => {
    expect(renderSources([], NOW).value).toContain('No register source is configured');
  });
});

function issuerData(events = eventsOf()): SourceIssuerData {
  const v = view();
  return {
    view: v,
    key: LEI,
    name: HOSTILE_ISSUER,
    issuer: v.kept?.snapshot.issuers[0],
    watched: true,
    events,
    nowMs: NOW,
  };
}

/** Two reads' worth of events of the hostile issuer: its aggregate 1.51% → 2.05%, crossing 2%. */
function eventsOf() {
  const before = read(
    [issuer(LEI, HOSTILE_ISSUER, { percent: 1.51, date: '2026-09-05', threshold: 0.1 })],
    SWEDISH,
  );
  const after = read(
    [issuer(LEI, HOSTILE_ISSUER, { percent: 2.05, date: '2026-09-12', threshold: 0.1 })],
    SWEDISH,
  );
  return eventsBetween(before, after, '2026-09-14T07:00:00.000Z', 'fi');
}

describe('the page of one issuer in one register', () => {
  const page = renderSourceIssuer(issuerData()).value;

  it('shows the aggregate with its threshold, the named sum and what lies below the public threshold', () => {
    expect(page).toMatch(/<h2>Aggregate of positions from 0.1%<\/h2><p class="big">2.05%<\/p>/);
    expect(page).toMatch(
      /<h2>Named positions \(from 0.5%\)<\/h2><p class="big">0.80%<\/p><p class="muted">1 holder</,
    );
    expect(page).toMatch(/<h2>Below the public threshold<\/h2><p class="big">1.25%<\/p>/);
  });

  it('draws the aggregate over time with the threshold on the axis, every name escaped', () => {
    expect(page).toContain(
      '<text class="axis-label" x="8" y="14">Aggregate of positions from 0.1%, % of issued shares</text>',
    );
    expect(page).toMatch(
      /<path class="line s0 d0" d="M[^"]+"><title>Aggregate of positions from 0.1%<\/title>/,
    );
    expect(page).toContain(
      'aria-label="Aggregate of positions from 0.1% in Björn &lt;b&gt;&amp;amp; &quot;Söner&quot; AB, over time"',
    );
    expect(page).toContain('O&#39;Brien &amp; &lt;script&gt;alert(1)&lt;/script&gt; Capital');
    expect(page).not.toMatch(/<b>|<script/);
  });

  it('lists its changes from this register with the source and the threshold, and links to their deliveries', () => {
    expect(page).toMatch(
      /aggregate crossed a level <span class="pill">register fi<\/span> <span class="pill">from 0.1%<\/span>/,
    );
    expect(page).toContain('href="/events?issuer=lei%3A549300ZVBGRRZLBVGC35&amp;source=fi"');
  });

  it('says there is nothing to draw when no aggregate was ever read', () => {
    const data = issuerData([]);
    const bare = {
      ...data,
      issuer: issuer(LEI, 'Named AB', undefined, [named('A Fund', 0.9, '2026-09-01')]),
    };
    expect(renderSourceIssuer(bare).value).toContain('Nothing to draw: no aggregate of this issuer');
  });
});

describe('register events where the console lists events', () => {
  const [crossed] = eventsOf();
  const ended = eventsBetween(
    read([issuer('GB1', 'X', { percent: 0.9, date: '2026-09-01', threshold: 0.2 })], {
      namesHolders: false,
      threshold: 0.2,
    }),
    read([issuer('GB1', 'X')], { namesHolders: false, threshold: 0.2 }),
    '2026-09-03T07:00:00.000Z',
  )[0];
  it.each([
    [
      'an aggregate that crossed a level',
      crossed,
      ['aggregate crossed a level', '1.51%', '2.05%', '+0.54 pp'],
      'from 0.1%',
    ],
    [
      'an aggregate no longer published',
      ended,
      ['aggregate no longer published', '0.90%', 'under 0.20%', '-'],
      'from 0.2%',
    ],
    [
      'named holders no longer published (a regime drop)',
      makeEvent({
        source: 'fca-legacy',
        holder: 'Named holders',
        kind: 'decreased',
        previous: { value: 1.4, date: '2026-07-10' },
        current: { value: 0, date: '2026-07-13' },
        delta: -1.4,
        aggregate: { kind: 'named-holders-ended', namedPercent: 1.4, namedHolders: 2 },
      }),
      ['named holders no longer published', '1.40%', 'not named', '-'],
      'register fca-legacy',
    ],
    [
      'a register holder',
      makeEvent({ source: 'afm' }),
      ['raised', '0.60%', '0.80%', '+0.20 pp'],
      'register afm',
    ],
  ])('%s', (_, event, cells, tag) => {
    if (!event) throw new Error('no event');
    expect([kindText(event), fromText(event), toText(event), deltaText(event)]).toEqual(cells);
    expect(String(originTags(event))).toContain(tag);
  });

  it('tags nothing on an event of the upstream API', () => {
    expect(originTags(makeEvent())).toBe('');
  });
});

describe('paths with ISINs and LEI keys', () => {
  it.each([
    ['an ISIN', 'fi', 'SE0000108227', '/sources/fi/SE0000108227'],
    ['a LEI key', 'fi', LEI, '/sources/fi/lei%3A549300ZVBGRRZLBVGC35'],
    ['a key with a slash and a space', 'fca', 'lei:A/B C', '/sources/fca/lei%3AA%2FB%20C'],
  ])('%s goes out encoded, one path segment the source issuer route takes', (_, name, key, path) => {
    expect(paths.sourceIssuer(name, key)).toBe(path);
    expect(decodeURIComponent(path.split('/')[3] ?? '')).toBe(key);
    expect(findRoute('GET', path)).toEqual({ run: expect.any(Function) });
    expect(findRoute('POST', path)).toBe('method-not-allowed');
  });

  it('sends a register event to its register page, an API event to the issuer page', () => {
    expect(paths.eventIssuer({ source: 'fi', issuer: { id: LEI, name: 'x' } })).toBe(
      '/sources/fi/lei%3A549300ZVBGRRZLBVGC35',
    );
    expect(paths.eventIssuer({ issuer: { id: 'ISS 1', name: 'x' } })).toBe('/issuers/ISS%201');
  });
});

describe('an upstream issuer page with register events of the same id in its log', () => {
  const [aggregate] = eventsBetween(
    read([issuer('ISS-ACME', 'Acme', { percent: 1.5, date: '2026-03-01', threshold: 0.2 })], {
      namesHolders: false,
      threshold: 0.2,
    }),
    read([issuer('ISS-ACME', 'Acme', { percent: 1.8, date: '2026-03-04', threshold: 0.2 })], {
      namesHolders: false,
      threshold: 0.2,
    }),
    '2026-03-05T07:00:00.000Z',
  );
  const page = renderIssuer(
    {
      id: 'ISS-ACME',
      name: 'Acme',
      snapshot: null,
      snapshotProblem: null,
      events: [makeEvent(), ...(aggregate ? [aggregate] : [])],
      history: null,
      dayLeft: 10,
      nowMs: Date.parse('2026-03-06T00:00:00Z'),
      registers: ['fca'],
    },
    'token',
  ).value;

  it('draws the upstream holder alone: an aggregate is no holder line', () => {
    expect(page.match(/<path class="line /g)).toHaveLength(1);
    expect(page).not.toContain('<title>Aggregate of positions');
  });

  it('lists the aggregate among its changes with its register and threshold, and links to the register page', () => {
    expect(page).toMatch(
      /<td>Aggregate of positions from 0.2%<\/td><td>aggregate moved <span class="pill">register fca<\/span> <span class="pill">from 0.2%<\/span>/,
    );
    expect(page).toContain('In the registers: <a href="/sources/fca/ISS-ACME">fca</a>');
  });
});
