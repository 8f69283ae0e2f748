import * as XLSX from '@e965/xlsx';
import { registerBytes } from '../helpers/register-fixtures.js';

// The modified copies the register e2e tests serve after the fixture: each states what it changed,
// so a test can list the events it expects.

/** The AFM "actueel" CSV (Windows-1252, `;`, every notification listed): edited as Latin-1 text. */
export const AFM_FIXTURE = 'shared:netherlands/nettoshortpositiesactueel.csv';

/**
 * The AFM file with Marshall Wace raising Randstad to 0.95% (a newer notification on top) and every
 * notification of Citadel in PostNL gone.
 */
export function afmChanged(): Buffer {
  const lines = registerBytes(AFM_FIXTURE).toString('latin1').split('\n');
  const [header, ...rows] = lines;
  const raised = '"Marshall Wace LLP";"Randstad N.V.";"NL0000379121";"0.95";"2025-08-13 00:00:00"';
  const kept = rows.filter(
    (line) => !(line.includes('"Citadel Advisors LLC"') && line.includes('NL0009739416')),
  );
  return Buffer.from([header, raised, ...kept].join('\n'), 'latin1');
}

/** The AFM file with its data rows cut to `share` of them (header and trailer kept). */
export function afmShrunk(share: number): Buffer {
  const lines = registerBytes(AFM_FIXTURE).toString('latin1').split('\n');
  const end = lines.findIndex((line) => line.startsWith('"Disclaimer'));
  const [header, ...rows] = lines.slice(0, end).filter((line) => line.trim() !== '');
  const kept = rows.slice(0, Math.floor(rows.length * share));
  return Buffer.from([header, ...kept, '', ...lines.slice(end)].join('\n'), 'latin1');
}

/** The AFM file cut off inside a quoted field, as an interrupted download leaves it. */
export function afmTruncated(): Buffer {
  const bytes = registerBytes(AFM_FIXTURE);
  const cut = bytes.indexOf('"Marshall Wace LLP";"Randst');
  return bytes.subarray(0, cut + '"Marshall Wace LLP";"Randst'.length);
}

/** The AFM file under another register's header line. */
export function afmWrongHeader(): Buffer {
  const [, ...rows] = registerBytes(AFM_FIXTURE).toString('latin1').split('\n');
  return Buffer.from(['"Holder","Issuer","ISIN","Percent","Date"', ...rows].join('\n'), 'latin1');
}

/** Norway's SSR JSON (six issuers, each a list of events, newest first). */
export const NORWAY_FIXTURE = 'shared:norway/ShortingHistory-24-08-2022.trimmed.json';

interface NorwayEvent {
  date: string;
  shortPercent: number;
  shares: number;
  activePositions: Array<{ date: string; shortPercent: number; shares: number; positionHolder: string }>;
}

/**
 * Norway with a new event for NEL: Helikon raised 2.2% → 2.6% and Odey gone (the aggregate follows the
 * named positions).
 */
export function norwayChanged(): Buffer {
  const issuers = JSON.parse(registerBytes(NORWAY_FIXTURE).toString('utf8')) as Array<{
    isin: string;
    events: NorwayEvent[];
  }>;
  const nel = issuers.find((issuer) => issuer.isin === 'NO0010081235');
  const latest = nel?.events[0];
  if (nel === undefined || latest === undefined) throw new Error('the Norway fixture lacks NEL');
  const positions = latest.activePositions
    .filter((p) => !p.positionHolder.startsWith('Odey'))
    .map((p) =>
      p.positionHolder.startsWith('Helikon') ? { ...p, date: '2022-08-23', shortPercent: 2.6 } : p,
    );
  const sum = Math.round(positions.reduce((total, p) => total + p.shortPercent, 0) * 100) / 100;
  nel.events.unshift({ date: '2022-08-23', shortPercent: sum, shares: 0, activePositions: positions });
  return Buffer.from(JSON.stringify(issuers, null, 2));
}

/** FI's current positions (ODS, first sheet, bilingual headers). */
export const SWEDEN_FIXTURE = 'shared:sweden/AktuellaPositioner.ods';

/**
 * Sweden with Citadel Advisors Europe raising SKF 0.67% → 0.85% and Marshall Wace's H&M position gone,
 * written back as ODS by SheetJS (blank padding rows dropped).
 */
export function swedenChanged(): Buffer {
  const book = XLSX.read(registerBytes(SWEDEN_FIXTURE), { type: 'buffer' });
  const name = book.SheetNames[0];
  const sheet = name === undefined ? undefined : book.Sheets[name];
  if (name === undefined || sheet === undefined) throw new Error('the Sweden fixture has no sheet');
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, blankrows: false });
  const text = (row: unknown[]) => row.map((cell) => String(cell ?? '')).join('|');
  const changed = rows
    .filter((row) => !(text(row).includes('Marshall Wace LLP') && text(row).includes('SE0000106270')))
    .map((row) => {
      if (!(text(row).includes('Citadel Advisors Europe Limited') && text(row).includes('SE0000108227')))
        return row;
      return row.map((cell) => (cell === 0.67 ? 0.85 : cell));
    });
  const out = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(out, XLSX.utils.aoa_to_sheet(changed), name);
  return Buffer.from(XLSX.write(out, { type: 'buffer', bookType: 'ods' }) as Uint8Array);
}

/** The FCA's current ANSP (built from the fixtures README's format) and its Reportable Shares List. */
export const ANSP_FIXTURE = 'uk/aggregated-current-net-short-positions.2026-09-15.csv';
export const SCOPE_FIXTURE = 'uk/uk-reportable-shares-list.2026-09-15.csv';
/** The next day's list: 888 Holdings left the scope, John Wood Group joined it. */
export const SCOPE_NEXT_FIXTURE = 'uk/uk-reportable-shares-list.2026-09-16.csv';

/**
 * The next ANSP: abrdn's aggregate moved 6.12% → 6.45%, YouGov's crossed 1% (0.95% → 1.05%), and John
 * Wood Group's is no longer published.
 */
export function anspChanged(): Buffer {
  const text = registerBytes(ANSP_FIXTURE).toString('utf8');
  return Buffer.from(
    text
      .replace('GB00BF8Q6K64,6.12,14/09/2026', 'GB00BF8Q6K64,6.45,15/09/2026')
      .replace('GB00B1VQ6H25,0.95,11/09/2026', 'GB00B1VQ6H25,1.05,15/09/2026')
      .replace(/^WOOD GROUP.*\n?/m, ''),
  );
}

/** Five AFM issuers whose every notification the "dropped" copy leaves out. */
export const AFM_DROPPED = ['LU2290522684', 'NL0000289213', 'NL0000360618', 'NL0000379121', 'NL0000888691'];

/** {@link afmChanged} without any holder of {@link AFM_DROPPED}: a register that stopped naming them. */
export function afmDropped(): Buffer {
  const lines = afmChanged().toString('latin1').split('\n');
  return Buffer.from(
    lines.filter((line) => !AFM_DROPPED.some((isin) => line.includes(`"${isin}"`))).join('\n'),
    'latin1',
  );
}

/** The AFM issuers {@link afmMostDropped} keeps: every other issuer's holders are gone. */
const AFM_KEPT = ['NL0000379121', 'NL0009739416'];

/**
 * {@link afmChanged} naming the holders of {@link AFM_KEPT} only: most of the register's issuers emptied
 * at once, a change of what it publishes once a confirming read agrees. With the issuers it empties.
 */
export function afmMostDropped(): { bytes: Buffer; dropped: string[] } {
  const lines = afmChanged().toString('latin1').split('\n');
  const isinOf = (line: string) => /"([A-Z]{2}[A-Z0-9]{9}\d)"/u.exec(line)?.[1];
  const listed = new Set(lines.map(isinOf).filter((isin) => isin !== undefined));
  const kept = lines.filter((line) => {
    const isin = isinOf(line);
    return isin === undefined || AFM_KEPT.includes(isin);
  });
  const dropped = [...listed].filter((isin) => !AFM_KEPT.includes(isin)).sort();
  return { bytes: Buffer.from(kept.join('\n'), 'latin1'), dropped };
}

/** FI's aggregate file (ODS, one aggregate from 0.1% per issuer, keyed by LEI). */
export const SWEDEN_AGGREGATE_FIXTURE = 'shared:sweden/Blankningsregisteraggregat.ods';
/** Hexagon's LEI in the aggregate file. */
export const HEXAGON_LEI = '549300WJFW6ILNI4TA80';

/** Sweden's aggregate with Hexagon's moved 1.51% → 2.05% (crossing 2%), written back as ODS. */
export function swedenAggregateChanged(): Buffer {
  const book = XLSX.read(registerBytes(SWEDEN_AGGREGATE_FIXTURE), { type: 'buffer' });
  const name = book.SheetNames[0];
  const sheet = name === undefined ? undefined : book.Sheets[name];
  if (name === undefined || sheet === undefined) throw new Error('the Sweden aggregate fixture has no sheet');
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, blankrows: false });
  const changed = rows.map((row) =>
    row[1] === HEXAGON_LEI ? row.map((cell) => (cell === 1.51 ? 2.05 : cell)) : row,
  );
  const out = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(out, XLSX.utils.aoa_to_sheet(changed), name);
  return Buffer.from(XLSX.write(out, { type: 'buffer', bookType: 'ods' }) as Uint8Array);
}
