import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { registerParseSchema } from '../../src/config/schema/sources.js';
import { RegisterReadError } from '../../src/sources/errors.js';
import { checkShape } from '../../src/sources/shape-bound.js';
import { odsCells, xlsxCells } from '../../src/sources/sheet-cells.js';
import {
  deflated,
  irelandEntries,
  longLineCsv,
  patchedZipBomb,
  rawZip,
  repeatedOds,
  zerosStream,
} from '../helpers/hostile-registers.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { readZip, writeZip } from '../helpers/zip.js';

const LIMITS = registerParseSchema.parse({});
const MIB = 1024 * 1024;

function refusal(bytes: Buffer, limits = LIMITS): { reason: string; message: string } | undefined {
  try {
    checkShape(bytes, limits);
    return undefined;
  } catch (error) {
    if (!(error instanceof RegisterReadError)) throw error;
    return { reason: error.reason, message: error.message };
  }
}

/** Sweden's positions file with `padding` spaces added to its content.xml: a zip bomb of the real shape. */
function swedenPadded(padding: number): Buffer {
  const entries = readZip(registerBytes('shared:sweden/AktuellaPositioner.ods'));
  return writeZip(
    entries.map(([name, data]) =>
      name === 'content.xml' ? [name, Buffer.concat([data, Buffer.alloc(padding, 0x20)])] : [name, data],
    ),
  );
}

describe('checkShape passes every real register file with the default limits', () => {
  it.each([
    'shared:ireland/table-of-significant-net-short-positions-in-shares.xlsx',
    'shared:italy/PncPubbl.xlsx',
    'shared:spain/NetShortPositions.xls',
    'shared:sweden/AktuellaPositioner.ods',
    'shared:sweden/Blankningsregisteraggregat.ods',
    'shared:united-kingdom/short-positions-daily-update2.xlsx',
    'shared:netherlands/nettoshortpositieshistorie.csv',
    'shared:belgium/de-shortselling-history.csv',
    'shared:norway/ShortingHistory-24-08-2022.trimmed.json',
    'shared:norway/export-csv_separator-pipe_excerpt.csv',
    'uk/aggregated-historic-net-short-positions.2026-09-15.csv',
  ])('%s', (path) => {
    expect(refusal(registerBytes(path))).toBeUndefined();
  });

  it("counts Sweden's padding (a cell repeated 16,384 times, 700,000 rows) as the empty cells SheetJS skips", () => {
    const content = readZip(registerBytes('shared:sweden/AktuellaPositioner.ods')).find(
      ([name]) => name === 'content.xml',
    );
    const cells = odsCells(content?.[1].toString('latin1') ?? '');
    expect(cells).toBeGreaterThan(800);
    expect(cells).toBeLessThan(5_000);
  });
});

describe('checkShape refuses the hostile files before a parser sees them', () => {
  it('a workbook whose "entries on this disk" lists a 1.5 GB entry that "total entries" leaves out', () => {
    const bomb = patchedZipBomb();
    expect(bomb.length).toBeLessThan(2 * MIB);
    expect(refusal(bomb)).toEqual({
      reason: 'unparseable',
      message: 'the zip end record counts its entries twice, differently',
    });
  });

  it('the same entry counted alike in both fields, measured by inflating it: too-large', () => {
    const entries = irelandEntries();
    const bomb = rawZip([
      ...entries,
      { name: 'x.bin', packed: zerosStream(200), size: 200 * MIB, method: 8 },
    ]);
    expect(refusal(bomb)).toEqual({
      reason: 'too-large',
      message: `the spreadsheet unpacks to more than ${LIMITS.maxUnpackedBytes} bytes`,
    });
  });

  it('the zeros stream is a real deflate stream of what it says', () => {
    expect(inflateRawSync(zerosStream(3)).equals(Buffer.alloc(3 * MIB))).toBe(true);
  });

  it('a small ODS that unpacks past the bound (Sweden padded)', () => {
    const bomb = swedenPadded(LIMITS.maxUnpackedBytes + 1);
    expect(bomb.length).toBeLessThan(2 * MIB);
    expect(refusal(bomb)?.reason).toBe('too-large');
    expect(refusal(swedenPadded(1024))).toBeUndefined();
  });

  it('an ODS of some 850 bytes that repeats one row into 10 M cells', () => {
    const ods = repeatedOds();
    expect(ods.length).toBeLessThan(1_000);
    expect(refusal(ods)).toEqual({ reason: 'too-large', message: 'the file holds more than 2000000 cells' });
    expect(refusal(repeatedOds(10, 100))).toBeUndefined();
  });

  it('a CSV line of 25 MiB', () => {
    expect(refusal(longLineCsv())).toEqual({
      reason: 'too-large',
      message: 'a line is longer than 65536 bytes',
    });
    expect(refusal(longLineCsv(60_000))).toBeUndefined();
  });

  it('a CSV of short lines holding more fields than maxCells', () => {
    const csv = Buffer.from(`${'a;'.repeat(1_000)}\n`.repeat(3));
    expect(refusal(csv, { ...LIMITS, maxCells: 2_000 })?.reason).toBe('too-large');
    expect(refusal(csv, { ...LIMITS, maxCells: 4_000 })).toBeUndefined();
  });
});

describe('the zip walk fails closed', () => {
  const entries = () => [
    deflated('content.xml', Buffer.from('<x/>')),
    deflated('mimetype', Buffer.from('m')),
  ];

  it('a directory offset that points at no directory entry', () => {
    const zip = rawZip(entries());
    zip.writeUInt32LE(3, zip.length - 6);
    expect(refusal(zip)?.message).toBe('zip directory entry 1 of 2 is not where the directory says');
  });

  it('a directory entry that points at no local header', () => {
    const zip = rawZip(entries());
    const directory = zip.readUInt32LE(zip.length - 6);
    zip.writeUInt32LE(7, directory + 42);
    expect(refusal(zip)?.message).toBe('a zip entry has no local header where its directory entry points');
  });

  it('a compression method SheetJS does not read (taken from the local header, as SheetJS does)', () => {
    const zip = rawZip(entries());
    zip.writeUInt16LE(12, 8);
    expect(refusal(zip)?.message).toBe('zip entry content.xml uses compression method 12');
  });

  it('an entry whose stream does not inflate', () => {
    const zip = rawZip([
      { name: 'content.xml', packed: Buffer.from([0xff, 0xff, 0xff]), size: 10, method: 8 },
    ]);
    expect(refusal(zip)?.message).toBe('zip entry content.xml does not inflate');
  });
});

describe('xlsxCells', () => {
  it.each([
    ['two cells on row 1', '<row r="1"><c r="A1"/><c r="B1"/></row>', 2],
    [
      'a far cell spans the range from A1',
      '<row r="1"><c r="A1"/></row><row r="1000"><c r="J1000"/></row>',
      10_000,
    ],
    ['cells without references count by place', '<row><c/><c/><c/></row><row><c/></row>', 6],
    ['no cells', '<sheetData/>', 0],
  ])('%s', (_name, xml, cells) => {
    expect(xlsxCells(xml)).toBe(cells);
  });
});
