import { findHeader, type HeaderSpec, rowsBelow } from '../columns.js';
import { csvDecoder, readerOf } from '../reader.js';
import { aggregateIssuer, issuersFromPoints, type PointRow, snapshotOf } from '../snapshot.js';
import type { AggregatePoint, DecodedTable, RegisterIssuer, RegisterSnapshot } from '../types.js';
import { cellText, parseDate, requireDate, requireIsin, requirePercent } from '../values.js';

/** The UK ANSP sums every position from 0.2% (Short Selling Regulations 2025). */
const UK_ANSP_THRESHOLD = 0.2;

// Matched loosely: the first publication headed the date "Position date (of latest position date
// notified)", and a BOM may or may not lead the file.
const ANSP: HeaderSpec<'name' | 'isin' | 'percent' | 'date'> = {
  name: /^name of company/,
  isin: /isin/,
  percent: /^aggregated net short position/,
  date: /^position date/,
};

const decode = csvDecoder('utf-8', ',');

// No holder is named any more: "aggregate minus named" has nothing to subtract.
const ANSP_SNAPSHOT = { namesHolders: false, aggregateThreshold: UK_ANSP_THRESHOLD };

function parseCurrent(table: DecodedTable): RegisterSnapshot {
  const all = table.sheets[0]?.rows ?? [];
  const header = findHeader(all, ANSP);
  const c = header.columns;
  const rows = rowsBelow(all, header.row);
  // One row per reportable share (ISIN): never summed across ISINs of one company.
  const issuers = rows.map((row, i) => {
    const where = `row ${i + 1}`;
    return aggregateIssuer(
      { isin: requireIsin(row[c.isin], where), name: cellText(row[c.name]) },
      {
        percent: requirePercent(row[c.percent], where),
        date: requireDate(row[c.date], where),
        thresholdPercent: UK_ANSP_THRESHOLD,
      },
    );
  });
  return snapshotOf('uk-ansp-current', issuers, rows.length, ANSP_SNAPSHOT);
}

function parseHistoric(table: DecodedTable): RegisterSnapshot {
  const all = table.sheets[0]?.rows ?? [];
  const header = findHeader(all, { ...ANSP, ended: /became historical/ });
  const c = header.columns;
  const rows = rowsBelow(all, header.row);
  // Joined on ISIN: names differ in case from the current file. A % column holding dates (the
  // misaligned file of 17 Jul 2026) fails requirePercent: the whole file is refused.
  const points = rows.map((row, i): PointRow => {
    const where = `row ${i + 1}`;
    const point: AggregatePoint = {
      date: requireDate(row[c.date], where),
      percent: requirePercent(row[c.percent], where),
    };
    const endedOn = parseDate(row[c.ended]);
    if (endedOn !== undefined) point.endedOn = endedOn;
    return { isin: requireIsin(row[c.isin], where), name: cellText(row[c.name]), point };
  });
  const issuers = issuersFromPoints(points);
  return snapshotOf('uk-ansp-historic', issuers, rows.length, ANSP_SNAPSHOT);
}

function parseReportableShares(table: DecodedTable): RegisterSnapshot {
  const all = table.sheets[0]?.rows ?? [];
  const header = findHeader(all, { isin: /isin/, name: /^company name/, shareClass: /^class of share/ });
  const c = header.columns;
  const rows = rowsBelow(all, header.row);
  const issuers = rows.map((row, i): RegisterIssuer => {
    const isin = requireIsin(row[c.isin], `row ${i + 1}`);
    return { key: isin, isin, name: cellText(row[c.name]), positions: [] };
  });
  return snapshotOf('uk-reportable-shares', issuers, rows.length, { content: 'scope', namesHolders: false });
}

/** The FCA's `aggregated-current-net-short-positions.csv`: one ANSP per reportable share. */
export const ukAnspCurrent = readerOf({ decode, parse: parseCurrent });

/** The FCA's `aggregated-historic-net-short-positions.csv`: past ANSPs, revisable. */
export const ukAnspHistoric = readerOf({ decode, parse: parseHistoric });

/** The FCA's `uk-reportable-shares-list.csv`: the shares in scope of the ANSP regime. */
export const ukReportableShares = readerOf({ decode, parse: parseReportableShares });
