import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderKey } from '../../src/positions/index.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { waitFor } from './harness.js';
import {
  AMF_FIXTURE,
  amfChanged,
  BANZ_EXPIRED_FIXTURE,
  BANZ_HISTORY_FIXTURE,
  BANZ_OPEN_FIXTURE,
  banzHistoryChanged,
  banzOpenChanged,
  FIN_FIXTURE,
  FMA_FIXTURE,
  finChanged,
  fmaChanged,
  KNF_ERROR_FIXTURE,
  KNF_JSON_FIXTURE,
  KNF_PAGE_FIXTURE,
  knfJsonChanged,
  knfPageChanged,
} from './register-changes-more.js';
import { expectTold, type RegisterStack, startRegisterStack } from './register-stack.js';

// The third register stack: the registers of issue 34, each served as its fixture, then as a modified
// copy. KNF's JSON API and FIN-FSA answer a form POST; KNF's JSON is served a page at a time (pages of
// 20 for its 30 and then 31 records), so every read pages.
const SOURCES = [
  { name: 'fma', kind: 'at-fma-history', path: '/fma.csv', fixture: FMA_FIXTURE },
  { name: 'knf', kind: 'pl-knf-html', path: '/knf.html', fixture: KNF_PAGE_FIXTURE },
  {
    name: 'knfjson',
    kind: 'pl-knf-json-history',
    path: '/knf/JSON',
    fixture: KNF_JSON_FIXTURE,
    paged: true,
    config: { fetch: { pageSize: 20 } },
  },
  { name: 'banz', kind: 'de-banz-current', path: '/banz.csv', fixture: BANZ_OPEN_FIXTURE },
  { name: 'banzhist', kind: 'de-banz-history', path: '/banz-hist.csv', fixture: BANZ_HISTORY_FIXTURE },
  { name: 'amf', kind: 'fr-amf', path: '/amf.csv', fixture: AMF_FIXTURE },
  { name: 'finfsa', kind: 'fi-fsa-current', path: '/finfsa', fixture: FIN_FIXTURE },
] as const;

let registers: RegisterStack;

beforeAll(async () => {
  registers = await startRegisterStack(SOURCES);
}, 90_000);

afterAll(async () => {
  await registers?.close();
});

/** What each changed issuer's one Slack message and one e-mail must say, beside the register's name. */
const TOLD = [
  {
    source: 'fma',
    issuer: 'voestalpine',
    line: /Marshall Wace LLP opened, filed late \(position of 2026-01-05 reported 2026-03-02, 56 days later\)[^\n]*0\.62%/,
  },
  {
    source: 'fma',
    issuer: 'SCHOELLER-BLECKMANN',
    line: /ActusRayPartners Limited fell below the 0\.5% disclosure threshold, no longer public: 0\.84% → off/,
  },
  { source: 'knf', issuer: '11BIT', line: /WorldQuant, LLC raised 0\.58% → 0\.66%/ },
  {
    source: 'knf',
    issuer: 'CDPROJEKT',
    line: /Citadel Advisors LLC fell below the 0\.5% disclosure threshold, no longer public: 0\.50% → off/,
  },
  { source: 'knfjson', issuer: 'PKNORLEN', line: /Marshall Wace LLP opened 0\.55%/ },
  { source: 'banz', issuer: 'SAP SE', line: /Marshall Wace LLP raised 0\.62% → 0\.70%/ },
  {
    source: 'banzhist',
    issuer: 'SAP SE',
    line: /Citadel Advisors LLC fell below the 0\.5% disclosure threshold/,
  },
  { source: 'amf', issuer: 'FORVIA', line: /Marshall Wace LLP raised 0\.71% → 0\.80%/ },
  {
    source: 'amf',
    issuer: 'FORVIA',
    line: /AQR Capital Management, LLC fell below the 0\.5% disclosure threshold, no longer public: 1\.05% → off/,
  },
  { source: 'finfsa', issuer: 'Nokia', line: /Marshall Wace LLP raised 0\.61% → 0\.70%/ },
  {
    source: 'finfsa',
    issuer: 'Nokia',
    line: /Citadel Advisors LLC fell below the 0\.5% disclosure threshold, no longer public: 0\.50% → off/,
  },
] as const;

describe('the registers of issue 34: file or pages served → read → diff → Slack and e-mail', () => {
  it('takes a silent baseline, then tells each change once, the late filing with both dates', async () => {
    expect(await registers.events()).toEqual([]);
    await registers.readsPass(2);
    // Every read of KNF's JSON asked two pages (20 + 10 records).
    expect(registers.server.hits('/knf/JSON').all % 2).toBe(0);
    expect(registers.stack.slack.delivered()).toHaveLength(0);

    registers.server.serve('/fma.csv', fmaChanged());
    registers.server.serve('/knf.html', knfPageChanged());
    registers.server.servePaged('/knf/JSON', knfJsonChanged());
    registers.server.serve('/banz.csv', banzOpenChanged());
    registers.server.serve('/banz-hist.csv', banzHistoryChanged());
    registers.server.serve('/amf.csv', amfChanged());
    registers.server.serve('/finfsa', finChanged());
    const expected = [
      `fma|AT0000937503|${holderKey('Marshall Wace LLP')}|opened`,
      `fma|AT0000946652|${holderKey('ActusRayPartners Limited')}|closed`,
      `knf|PL11BTS00015|${holderKey('WorldQuant, LLC')}|increased`,
      `knf|PLOPTTC00011|${holderKey('Citadel Advisors LLC')}|closed`,
      `knfjson|PLPKN0000018|${holderKey('Marshall Wace LLP')}|opened`,
      `banz|DE0007164600|${holderKey('Marshall Wace LLP')}|increased`,
      `banz|DE0007164600|${holderKey('Citadel Advisors LLC')}|closed`,
      `banzhist|DE0007164600|${holderKey('Marshall Wace LLP')}|increased`,
      `banzhist|DE0007164600|${holderKey('Citadel Advisors LLC')}|closed`,
      `amf|FR0000121147|${holderKey('Marshall Wace LLP')}|increased`,
      `amf|FR0000121147|${holderKey('AQR Capital Management, LLC')}|closed`,
      `finfsa|FI0009000681|${holderKey('Marshall Wace LLP')}|increased`,
      `finfsa|FI0009000681|${holderKey('Citadel Advisors LLC')}|closed`,
    ].sort();
    // Nine issuers changed (SAP in two sources): one Slack message and one e-mail each.
    await expectTold(registers, expected, 9, TOLD);

    // Later reads (304s, or the same pages again) tell nothing twice; the cancelled 25% never is.
    await registers.readsPass(3);
    expect(registers.stack.slack.delivered()).toHaveLength(9);
    expect(registers.stack.smtp.mails).toHaveLength(9);
    expect(await registers.events()).toEqual(expected);
    expect(registers.slackSince(0).join('\n')).not.toContain('Algert');
  }, 120_000);

  it("shows KNF's error page and an expired Bundesanzeiger session as not read, and changes nothing", async () => {
    const events = await registers.events();
    const posts = registers.stack.slack.delivered().length;
    registers.server.serve('/knf.html', registerBytes(KNF_ERROR_FIXTURE));
    registers.server.serve('/banz.csv', registerBytes(BANZ_EXPIRED_FIXTURE));
    registers.server.serve('/knf/JSON', registerBytes(KNF_ERROR_FIXTURE));
    await waitFor('three sources not read', async () => {
      const health = await Promise.all(
        ['knf', 'banz', 'knfjson'].map((name) => registers.store().health(name)),
      );
      return health.every((h) => h?.status === 'not-read');
    });
    for (const name of ['knf', 'banz', 'knfjson']) {
      const health = await registers.store().health(name);
      expect(health, name).toMatchObject({ status: 'not-read', reason: 'html-page' });
    }
    await registers.readsPass(2);
    expect(await registers.events()).toEqual(events);
    // Only the ops notices of the refused reads may arrive; no position message.
    expect(registers.slackSince(posts).join('\n')).not.toMatch(/fell below|opened|raised/);
  }, 60_000);
});
