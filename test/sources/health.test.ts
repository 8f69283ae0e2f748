import { describe, expect, it } from 'vitest';
import type { RegisterKind } from '../../src/config/schema/sources.js';
import { type ReadOutcome, readRegister } from '../../src/sources/health.js';
import { REGISTER_READERS } from '../../src/sources/registers.js';
import { registerBytes } from '../helpers/register-fixtures.js';

const AFM = 'shared:netherlands/nettoshortpositiesactueel.csv';
const LIMITS = { minShrinkRatio: 0.5, shrinkFloor: 10 };

function cut(bytes: Buffer, share: number): Buffer {
  return bytes.subarray(0, Math.floor(bytes.length * share));
}

/** The AFM file with every other data row dropped: a complete file, half as long. */
function afmHalved(): Buffer {
  const lines = registerBytes(AFM).toString('latin1').split('\n');
  const data = lines.slice(1, 193).filter((_line, i) => i % 2 === 0);
  return Buffer.from([lines[0], ...data, ...lines.slice(193)].join('\n'), 'latin1');
}

const HTML = Buffer.from(
  '\n  <!DOCTYPE html>\n<html><head><title>Service unavailable</title></head><body>Try later</body></html>',
);

const cases: { name: string; kind: RegisterKind; bytes: () => Buffer; lastRows?: number; reason: string }[] =
  [
    {
      name: 'an HTML error page served as the AFM CSV',
      kind: 'afm-current',
      bytes: () => HTML,
      reason: 'html-page',
    },
    {
      name: 'an HTML error page served as the CONSOB workbook',
      kind: 'it-consob',
      bytes: () => HTML,
      reason: 'html-page',
    },
    {
      name: 'the AFM CSV cut inside a quoted field',
      kind: 'afm-current',
      bytes: () => cut(registerBytes(AFM), 0.5),
      reason: 'truncated',
    },
    {
      name: 'the AFM CSV cut at a line end (no disclaimer trailer)',
      kind: 'afm-current',
      bytes: () =>
        Buffer.from(registerBytes(AFM).toString('latin1').split('\n').slice(0, 100).join('\n'), 'latin1'),
      reason: 'truncated',
    },
    {
      name: 'the Norway JSON cut in half',
      kind: 'no-ssr-json',
      bytes: () => cut(registerBytes('shared:norway/ShortingHistory-24-08-2022.trimmed.json'), 0.5),
      reason: 'truncated',
    },
    {
      name: 'the CONSOB XLSX cut in half',
      kind: 'it-consob',
      bytes: () => cut(registerBytes('shared:italy/PncPubbl.xlsx'), 0.5),
      reason: 'truncated',
    },
    {
      name: 'the Swedish ODS cut in half',
      kind: 'se-fi-current',
      bytes: () => cut(registerBytes('shared:sweden/AktuellaPositioner.ods'), 0.5),
      reason: 'truncated',
    },
    {
      name: 'the FSMA CSV served as the AFM file',
      kind: 'afm-current',
      bytes: () => registerBytes('shared:belgium/de-shortselling.csv'),
      reason: 'wrong-header',
    },
    {
      name: 'the legacy UK workbook served as CONSOB',
      kind: 'it-consob',
      bytes: () => registerBytes('shared:united-kingdom/short-positions-daily-update2.xlsx'),
      reason: 'wrong-header',
    },
    {
      name: 'the Swedish aggregate served as the positions file',
      kind: 'se-fi-current',
      bytes: () => registerBytes('shared:sweden/Blankningsregisteraggregat.ods'),
      reason: 'wrong-header',
    },
    {
      name: 'an object where Norway serves an array',
      kind: 'no-ssr-json',
      bytes: () => Buffer.from('{"error":"maintenance"}'),
      reason: 'wrong-header',
    },
    {
      name: 'a PDF served as a workbook',
      kind: 'es-cnmv',
      bytes: () => Buffer.from('%PDF-1.7\n...'),
      reason: 'unparseable',
    },
    {
      name: 'a historic ANSP file with dates in the % column',
      kind: 'uk-ansp-historic',
      bytes: () => registerBytes('uk/aggregated-historic-net-short-positions.misaligned-2026-07-17.csv'),
      reason: 'unparseable',
    },
    {
      name: 'the AFM file shrunk by half against the last good read',
      kind: 'afm-current',
      bytes: afmHalved,
      lastRows: 192,
      reason: 'shrank',
    },
  ];

describe('readRegister refuses a file that is not the register', () => {
  it.each(cases)('$name → not read ($reason)', ({ kind, bytes, lastRows, reason }) => {
    const outcome = readRegister(REGISTER_READERS[kind], bytes(), {
      ...LIMITS,
      lastGood: lastRows === undefined ? undefined : { rows: lastRows },
    });
    expect(outcome.status).toBe('not-read');
    expect(outcome).toMatchObject({ reason });
    expect(outcome).not.toHaveProperty('snapshot');
  });
});

describe('readRegister reads what is plausible', () => {
  const read = (kind: RegisterKind, bytes: Buffer, lastRows?: number): ReadOutcome =>
    readRegister(REGISTER_READERS[kind], bytes, {
      ...LIMITS,
      lastGood: lastRows === undefined ? undefined : { rows: lastRows },
    });

  it('reads the whole AFM file against a last read of the same size', () => {
    const outcome = read('afm-current', registerBytes(AFM), 192);
    expect(outcome.status === 'read' && outcome.snapshot.rows).toBe(192);
  });

  it('reads the halved AFM file when it is the first read (nothing to compare with)', () => {
    expect(read('afm-current', afmHalved()).status).toBe('read');
  });

  it('reads a register that empties below the shrink floor (Ireland lists one position)', () => {
    const header = Buffer.from(
      '"Position date","Change Position Date",Issuer,ISIN,"Position holder","Net short position"\n',
    );
    const outcome = read('be-fsma-current', header, 4);
    expect(outcome.status === 'read' && outcome.snapshot.issuers).toEqual([]);
  });
});
