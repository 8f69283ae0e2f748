// Register files built to hurt a parser (issue 29), each small on the wire: a workbook whose zip end record
// hides a 1.5 GB entry from a walk that reads "total entries", an ODS that repeats one row into 10 M cells,
// and a CSV of one 25 MiB line.
import { constants, deflateRawSync } from 'node:zlib';
import { registerBytes } from './register-fixtures.js';
import { readZip } from './zip.js';

const MIB = 1024 * 1024;

/** One entry to write: its name, its bytes as stored, their unpacked size, and how they are stored. */
export interface RawZipEntry {
  name: string;
  packed: Buffer;
  size: number;
  method: 0 | 8;
}

/** A deflated entry. */
export function deflated(name: string, data: Buffer): RawZipEntry {
  return { name, packed: deflateRawSync(data), size: data.length, method: 8 };
}

/** A stored (uncompressed) entry. */
export function stored(name: string, data: Buffer): RawZipEntry {
  return { name, packed: data, size: data.length, method: 0 };
}

/**
 * A deflate stream of `mib` MiB of zeros, some 1 KB a MiB, written without holding them: one MiB
 * compressed up to a full flush (byte-aligned, no reference before it) repeated, then a final empty block.
 */
export function zerosStream(mib: number): Buffer {
  const segment = deflateRawSync(Buffer.alloc(MIB), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array.from({ length: mib }, () => segment), Buffer.from([0x03, 0x00])]);
}

/**
 * A zip of `entries` written by hand, so its end record can lie: `onDisk` is the "entries on this disk"
 * field SheetJS reads, `total` the "total entries" one (both the entry count unless given).
 */
export function rawZip(
  entries: readonly RawZipEntry[],
  counts: { onDisk?: number; total?: number } = {},
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'latin1');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(entry.packed.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(entry.packed.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.packed);
    centrals.push(central, name);
    offset += local.length + name.length + entry.packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(counts.onDisk ?? entries.length, 8);
  end.writeUInt16LE(counts.total ?? entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The Central Bank of Ireland's real workbook, its parts deflated again into a zip written by hand. */
export function irelandEntries(): RawZipEntry[] {
  const bytes = registerBytes('shared:ireland/table-of-significant-net-short-positions-in-shares.xlsx');
  return readZip(bytes).map(([name, data]) => deflated(name, data));
}

/**
 * The Irish workbook with one more entry, 1.5 GB of zeros deflated into 1.5 MB, listed last in its
 * directory: "entries on this disk" counts it, "total entries" does not. SheetJS walks the first field.
 */
export function patchedZipBomb(): Buffer {
  const entries = irelandEntries();
  const bomb: RawZipEntry = {
    name: 'xl/media/image1.bin',
    packed: zerosStream(1_536),
    size: 1_536 * MIB,
    method: 8,
  };
  return rawZip([...entries, bomb], { onDisk: entries.length + 1, total: entries.length });
}

const ODS_MIME = 'application/vnd.oasis.opendocument.spreadsheet';

/** An ODS whose one sheet is `rows` repeats of a row holding one text cell repeated `columns` times. */
export function repeatedOds(rows = 1_000, columns = 10_000): Buffer {
  const content =
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">' +
    '<office:body><office:spreadsheet><table:table table:name="Aktuella positioner">' +
    `<table:table-row table:number-rows-repeated="${rows}">` +
    `<table:table-cell table:number-columns-repeated="${columns}" office:value-type="string">` +
    '<text:p>Positionsinnehavare</text:p></table:table-cell></table:table-row>' +
    '</table:table></office:spreadsheet></office:body></office:document-content>';
  return rawZip([stored('mimetype', Buffer.from(ODS_MIME)), deflated('content.xml', Buffer.from(content))]);
}

/** The AFM's header, then one line of `bytes` bytes (a quoted field that never ends before it). */
export function longLineCsv(bytes = 25 * MIB - 4_096): Buffer {
  const header = '"Position holder";"Name of the issuer";"ISIN";"Net short position";"Position date"\n';
  return Buffer.concat([Buffer.from(header), Buffer.alloc(bytes, 'a'), Buffer.from('\n')]);
}
