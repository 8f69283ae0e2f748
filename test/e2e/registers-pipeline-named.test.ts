import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSourceIssuer, renderSourceIssuer } from '../../src/console/pages/source-issuer.js';
import { NAMED_HOLDERS } from '../../src/jobs/observe/regime-event.js';
import { aggregateHolder } from '../../src/jobs/registers/aggregate-alerts.js';
import { holderKey } from '../../src/positions/index.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { waitFor } from './harness.js';
import {
  AFM_HISTORY_FIXTURE,
  ANSP_HISTORIC_FIXTURE,
  ANSP_HISTORIC_NEXT_FIXTURE,
  afmHistoryChanged,
  CBI_FIXTURE,
  CNMV_FIXTURE,
  CONSOB_FIXTURE,
  cbiChanged,
  cnmvChanged,
  consobChanged,
  FSMA_FIXTURE,
  FSMA_HISTORY_FIXTURE,
  fsmaChanged,
  fsmaHistoryChanged,
  LEGACY_DROPPED,
  LEGACY_FIXTURE,
  legacyDropped,
} from './register-changes-named.js';
import { expectTold, type RegisterStack, startRegisterStack } from './register-stack.js';

// The second register stack: the named-holder registers (CONSOB, CNMV, CBI, FSMA current and history),
// the FCA's historic ANSP and the FCA's legacy workbook at its regime boundary, each served as its
// fixture and then as a modified copy. Spreadsheet copies are written by SheetJS in their own format.
const SOURCES = [
  { name: 'consob', kind: 'it-consob', path: '/consob.xlsx', fixture: CONSOB_FIXTURE },
  { name: 'cnmv', kind: 'es-cnmv', path: '/cnmv.xls', fixture: CNMV_FIXTURE },
  { name: 'cbi', kind: 'ie-cbi', path: '/cbi.xlsx', fixture: CBI_FIXTURE },
  { name: 'fsma', kind: 'be-fsma-current', path: '/fsma.csv', fixture: FSMA_FIXTURE },
  { name: 'fsmahist', kind: 'be-fsma-history', path: '/fsma-history.csv', fixture: FSMA_HISTORY_FIXTURE },
  { name: 'fcahist', kind: 'uk-ansp-historic', path: '/ansp-historic.csv', fixture: ANSP_HISTORIC_FIXTURE },
  { name: 'afmhist', kind: 'afm-history', path: '/afm-history.csv', fixture: AFM_HISTORY_FIXTURE },
  {
    name: 'fcalegacy',
    kind: 'uk-legacy-holders',
    path: '/legacy.xlsx',
    fixture: LEGACY_FIXTURE,
    // The FCA's last day of named holders: every read of this test is after it.
    config: { regimeBoundary: { namedHoldersUntil: '2026-07-12' } },
  },
] as const;

let registers: RegisterStack;
/** The modified copies, built once before the stack starts (SheetJS writes the CNMV's BIFF8 in seconds). */
const copies = new Map<string, Buffer>();

beforeAll(async () => {
  copies.set('consob', consobChanged());
  copies.set('cnmv', cnmvChanged());
  copies.set('cbi', cbiChanged());
  copies.set('fsma', fsmaChanged());
  copies.set('fsmahist', fsmaHistoryChanged());
  copies.set('fcahist', registerBytes(ANSP_HISTORIC_NEXT_FIXTURE));
  copies.set('afmhist', afmHistoryChanged());
  copies.set('fcalegacy', legacyDropped());
  registers = await startRegisterStack(SOURCES);
}, 90_000);

afterAll(async () => {
  await registers?.close();
});

/** The console's page of one issuer of one source (`/sources/<name>/<key>`), as HTML. */
async function issuerPage(source: string, key: string): Promise<string> {
  const data = await loadSourceIssuer(registers.app, source, key);
  if (data === null || data === 'no-source') throw new Error(`no page for ${source} ${key}`);
  return renderSourceIssuer(data).value;
}

/** Serves the modified copy of each named source. */
function serveCopies(...names: string[]): void {
  for (const name of names) {
    const source = SOURCES.find((s) => s.name === name);
    const copy = copies.get(name);
    if (source === undefined || copy === undefined) throw new Error(`no copy of ${name}`);
    registers.server.serve(source.path, copy);
  }
}

/** What each changed issuer's one Slack message and one e-mail must say, beside the register's name. */
const TOLD = [
  { source: 'consob', issuer: 'AMPLIFON', line: /D\. E\. Shaw & Co\., L\.P\. raised 0\.59% → 0\.75%/ },
  {
    source: 'consob',
    issuer: 'AZIMUT',
    line: /Citadel Advisors LLC fell below the 0\.5% disclosure threshold, no longer public: 0\.51% → off the list/,
  },
  {
    source: 'cnmv',
    issuer: 'BANKINTER',
    line: /Canada Pension Plan Investment Board raised 1\.20% → 1\.35%/,
  },
  {
    source: 'cnmv',
    issuer: 'AMPER',
    line: /Qube Research & Technologies Ltd fell below the 0\.5% disclosure threshold, no longer public: 0\.61% → off/,
  },
  // Ireland stores fractions: 0.0088 → 0.0095 is told in per cent.
  { source: 'cbi', issuer: 'UNIPHAR', line: /GLG Partners LP raised 0\.88% → 0\.95%/ },
  { source: 'cbi', issuer: 'Ryanair', line: /Qube Research & Technologies Limited opened 0\.61%/ },
  { source: 'fsma', issuer: 'ONTEX', line: /Walleye Capital LLC raised 0\.60% → 0\.72%/ },
  {
    source: 'fsma',
    issuer: 'SOLVAY',
    line: /Numeric Investors LLC fell below the 0\.5% disclosure threshold, no longer public: 0\.69% → off/,
  },
  { source: 'afmhist', issuer: 'Fugro', line: /Marshall Wace LLP opened 0\.62%/ },
  { source: 'afmhist', issuer: 'Fugro', line: /Qube Research & Technologies Ltd opened 0\.55%/ },
  {
    source: 'fcahist',
    issuer: 'Vistry',
    line: /Aggregate of positions from 0\.2%, revised for 2026-07-06 revised 3\.10% → 3\.25%/,
  },
] as const;

/** The modified copy of `name`, read back by SheetJS: cells dense, number formats kept. */
function reread(name: string, options: XLSX.ParsingOptions = {}): XLSX.WorkBook {
  return XLSX.read(copyOf(name), { type: 'buffer', dense: true, cellNF: true, ...options });
}

function copyOf(name: string): Buffer {
  const copy = copies.get(name);
  if (copy === undefined) throw new Error(`no copy of ${name}`);
  return copy;
}

/** The rows of `sheet` as arrays of cells (blank rows kept, so indexes are the sheet's own). */
function cells(book: XLSX.WorkBook, sheet: number): XLSX.CellObject[][] {
  const name = book.SheetNames[sheet];
  return (name === undefined ? undefined : book.Sheets[name]?.['!data']) ?? [];
}

/** The `<row` elements of a sheet of a zipped workbook: its rows, without parsing the sheet. */
function zippedRows(name: string, entry: string): number {
  const zip = XLSX.CFB.read(copyOf(name), { type: 'buffer' });
  const file = zip.FileIndex[zip.FullPaths.findIndex((path: string) => path.endsWith(`/${entry}`))];
  return (
    Buffer.from(file?.content ?? [])
      .toString('utf8')
      .split('<row ').length - 1
  );
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const COMPOUND_FILE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** Per modified copy, the traps of its original (SOURCES.md beside the fixtures) that it must keep. */
const TRAPS: [string, () => void][] = [
  [
    'CONSOB workbook',
    () => {
      expect(copyOf('consob').subarray(0, 4)).toEqual(ZIP);
      const book = reread('consob', { sheets: [0, 2] });
      expect(book.SheetNames).toEqual([
        ' Correnti - Current ',
        ' Storiche - Historic ',
        ' Pubb. Data - Pubb. Date ',
      ]);
      const rows = cells(book, 0);
      expect([rows[0]?.[0]?.v, rows[1]?.[0]?.v]).toEqual(['Detentore', 'Position Holder']);
      // The raised position's date is an Excel serial in Excel's built-in date format (14, `m/d/yy`), as
      // every date of the original.
      const raised = rows.find((row) => row?.[0]?.v === 'D. E. Shaw & Co., L.P.');
      expect(raised?.[6]).toMatchObject({ t: 'n', v: 45882, z: 'm/d/yy' });
      expect(cells(book, 2)[2]?.[0]?.v).toBe('13/08/2025');
      // The 22,166 historic rows and two header rows are written back, unread by the parser.
      expect(zippedRows('consob', 'xl/worksheets/sheet2.xml')).toBe(22_168);
    },
  ],
  [
    'CNMV workbook',
    () => {
      const copy = copyOf('cnmv');
      expect(copy.subarray(0, 8)).toEqual(COMPOUND_FILE);
      // BIFF8 lives in a stream called Workbook (BIFF5 called it Book).
      expect(XLSX.CFB.find(XLSX.CFB.read(copy, { type: 'buffer' }), 'Workbook')).not.toBeNull();
      const book = reread('cnmv');
      expect(book.SheetNames.slice(0, 4)).toEqual([
        'Fecha_-_Date',
        'Última_-_Current',
        'Serie_-_Series',
        'Anteriores_-_Previous',
      ]);
      expect(book.SheetNames).toHaveLength(10);
      const current = book.Sheets['Última_-_Current'];
      // Three blank rows, then the bilingual header.
      expect(current?.['!ref']).toBe('A4:F42');
      const raised = cells(book, 1).find((row) => row?.[3]?.v === 'Canada Pension Plan Investment Board');
      expect(raised?.[4]).toMatchObject({ t: 's', v: ' 2025-08-13 ' });
      expect(book.Sheets['Anteriores_-_Previous']?.['!ref']).toBe('A4:F12374');
    },
  ],
  [
    'CBI workbook',
    () => {
      expect(copyOf('cbi').subarray(0, 4)).toEqual(ZIP);
      const book = reread('cbi', { sheets: [0] });
      const rows = cells(book, 0);
      expect(rows[0]?.[0]?.v).toBe('Table of Current Significant Net Short Positions in Shares');
      expect(rows[0]?.[1]?.v).toBe('Position Holder:');
      expect(rows[1]?.[4]).toMatchObject({ t: 'n', v: 0.0095, z: '0.00%' });
      expect(rows[2]?.[1]?.v).toBe('Qube Research & Technologies Limited');
      expect(rows[5]?.[0]?.v).toBe('Last Updated:');
      expect(rows[6]?.[0]).toMatchObject({ t: 'n', v: 45882 });
    },
  ],
  [
    'legacy UK workbook',
    () => {
      expect(copyOf('fcalegacy').subarray(0, 4)).toEqual(ZIP);
      const book = reread('fcalegacy', { sheets: [0] });
      expect(book.SheetNames).toEqual(['Current Disclosures 10.07.2026', 'Historic Disclosures 10.07.2026']);
      expect(cells(book, 0)[1]?.[4]).toMatchObject({ t: 'n', z: 'm/d/yy' });
    },
  ],
  ...(['fsma', 'fsmahist'] as const).map((name): [string, () => void] => [
    `${name} CSV`,
    () => {
      const text = copyOf(name).toString('utf8');
      expect(text.startsWith('"Position date","Change Position Date",Issuer,ISIN,')).toBe(true);
      // Quoted decimal commas, and no newline after the last row.
      expect(text).toContain('"Walleye Capital LLC","0,');
      expect(text.endsWith('\n')).toBe(false);
    },
  ]),
];

describe('named-holder registers: spreadsheet or CSV served → conditional GET → diff → Slack and e-mail', () => {
  it('takes a silent baseline, then tells each holder raised, opened or gone and the revised ANSP once', async () => {
    expect(await registers.events()).toEqual([]);
    await registers.readsPass(2);
    expect(registers.server.hits('/cnmv.xls').notModified).toBeGreaterThan(0);
    expect(registers.stack.slack.delivered()).toHaveLength(0);
    expect(registers.stack.smtp.mails).toHaveLength(0);

    // The console's issuer pages read the kept reads: a history lists no closed position as held.
    const solvay = await issuerPage('fsma', 'BE0003470755');
    expect(solvay).toMatch(
      /Named positions \(from 0\.5%\)<\/h2><p class="big">1\.91%<\/p><p class="muted">3 holders/,
    );
    for (const [source, key] of [
      ['fsmahist', 'BE0003470755'], // SOLVAY: 4.43% summed from its latest rows before
      ['fsmahist', 'BE0003816338'], // EURONAV: last notified in 2022
      ['afmhist', 'NL00150003E1'], // Fugro: every latest row under 0.5%
    ] as const) {
      const page = await issuerPage(source, key);
      expect(page, `${source} ${key}`).toContain('no named position in the kept read');
      expect(page, `${source} ${key}`).toMatch(
        /Named positions \(from 0\.5%\)<\/h2><p class="big">0\.00%<\/p><p class="muted">0 holders/,
      );
    }

    serveCopies('consob', 'cnmv', 'cbi', 'fsma', 'fsmahist', 'fcahist', 'afmhist');
    const revised = `${aggregateHolder(0.2)}, revised for 2026-07-06`;
    const expected = [
      `consob|IT0004056880|${holderKey('D. E. Shaw & Co., L.P.')}|increased`,
      `consob|IT0003261697|${holderKey('Citadel Advisors LLC')}|closed`,
      `cnmv|ES0113679I37|${holderKey('Canada Pension Plan Investment Board')}|increased`,
      `cnmv|ES0109260531|${holderKey('Qube Research & Technologies Ltd')}|closed`,
      `cbi|IE00BJ5FQX74|${holderKey('GLG Partners LP')}|increased`,
      // Ryanair is new to the register: its first position is news, not a baseline.
      `cbi|IE00BYTBXV33|${holderKey('Qube Research & Technologies Limited')}|opened`,
      `fsma|BE0974276082|${holderKey('Walleye Capital LLC')}|increased`,
      `fsma|BE0003470755|${holderKey('Numeric Investors LLC')}|closed`,
      // The FSMA history's row added was replaced on its change date: a past value, not a position.
      `fcahist|GB0001859296|${holderKey(revised)}|increased`,
      // The AFM history's every latest row was under 0.5%, so none was held: Marshall Wace opens in Fugro.
      `afmhist|NL00150003E1|${holderKey('Marshall Wace LLP')}|opened`,
      `afmhist|NL00150003E1|${holderKey('Qube Research & Technologies Ltd')}|opened`,
    ].sort();
    // Ten issuers changed (the FSMA history's row was a replaced one): one Slack message and one e-mail each.
    await expectTold(registers, expected, 10, TOLD);

    // Later reads find the same files (304s): nothing is told twice.
    await registers.readsPass(3);
    expect(registers.stack.slack.delivered()).toHaveLength(10);
    expect(registers.stack.smtp.mails).toHaveLength(10);
    // Nothing from the FSMA history: a replaced row is never held, so never raised.
    expect(registers.slackSince(0).filter((text) => /register fsmahist\b/.test(text))).toEqual([]);
    expect(await registers.events()).toEqual(expected);
    // The AFM history now holds what its new rows opened, and only that.
    expect(await issuerPage('afmhist', 'NL00150003E1')).toMatch(
      /Named positions \(from 0\.5%\)<\/h2><p class="big">1\.17%<\/p><p class="muted">2 holders/,
    );
  }, 90_000);

  it('tells the legacy UK holders dropped after namedHoldersUntil once per issuer, never as closes', async () => {
    const events = await registers.events();
    const posts = registers.stack.slack.delivered().length;
    const mails = registers.stack.smtp.mails.length;
    serveCopies('fcalegacy');
    const dropped = Object.entries(LEGACY_DROPPED);
    await waitFor(
      'three regime messages on Slack',
      () => registers.stack.slack.delivered().length >= posts + dropped.length,
    );
    await waitFor('three regime e-mails', () => registers.stack.smtp.mails.length >= mails + dropped.length);
    const slack = registers.slackSince(posts);
    const mail = registers.mailSince(mails);
    for (const told of [slack, mail]) {
      expect(told).toHaveLength(dropped.length);
      for (const [isin, { name, lastNamedSum }] of dropped) {
        const about = told.filter((text) => text.includes(isin));
        expect(about, isin).toHaveLength(1);
        expect(about[0]).toContain(name);
        expect(about[0]).toContain('Named holders no longer published by the register');
        expect(about[0]).toContain(`last named sum ${lastNamedSum}`);
        expect(about[0]).toMatch(/from register fcalegacy/);
      }
      expect(told.join('\n')).not.toMatch(/fell below/);
    }
    // One event per issuer is logged, never a close: the issuers' snapshots moved to no holders.
    await registers.readsPass(2);
    const named = holderKey(NAMED_HOLDERS);
    expect(await registers.events()).toEqual(
      [...events, ...dropped.map(([isin]) => `fcalegacy|${isin}|${named}|decreased`)].sort(),
    );
    expect(registers.stack.slack.delivered()).toHaveLength(posts + dropped.length);
    expect(registers.stack.smtp.mails).toHaveLength(mails + dropped.length);
  }, 60_000);

  it.each(TRAPS)('the modified copy of the %s keeps the traps of the original', (_, check) => {
    check();
  });
});
