import { z } from 'zod';
import { decodeCsv, decodeText } from '../decode.js';
import { RegisterReadError } from '../errors.js';
import { type NamedTableLayout, namedRows } from '../named-table.js';
import { issuersFromNotifications, type NotificationRow } from '../notifications.js';
import { readerOf } from '../reader.js';
import { snapshotOf } from '../snapshot.js';
import type { Cell } from '../types.js';
import { requireDate, requireIsin, requirePercent } from '../values.js';
import { decodeJson } from './norway.js';

// The export (`…/current/export`): `;`-separated text with the column names the request asks for.
const LAYOUT: NamedTableLayout = {
  header: {
    holder: /^position holder$/,
    issuer: /^name of the issuer$/,
    isin: /^isin$/,
    percent: /^net short position( \(%\))?$/,
    date: /^(position )?date$/,
  },
};

const rowSchema = z.object({
  positionHolder: z.string(),
  issuerName: z.string(),
  isinCode: z.string(),
  netShortPositionInPercent: z.union([z.number(), z.string()]),
  positionDate: z.string(),
});
const envelopeSchema = z.object({ data: z.array(rowSchema) });

/**
 * FIN-FSA's current positions from either answer of its endpoint: the DataTables JSON
 * (`{"data":[{positionHolder, issuerName, isinCode, netShortPositionInPercent, positionDate}]}`) or the
 * export's `;`-separated text. Values may be numbers or text with a decimal comma; dates ISO or
 * `dd.mm.yyyy`.
 */
function decodeFinFsa(bytes: Uint8Array): NotificationRow[] {
  const text = decodeText(bytes, 'utf-8');
  if (!/^\s*[{[]/.test(text)) return namedRows(decodeCsv(text, ';').sheets[0]?.rows ?? [], LAYOUT);
  const json = decodeJson(bytes);
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) {
    throw new RegisterReadError(
      'wrong-header',
      `not the DataTables shape: ${parsed.error.issues[0]?.message}`,
    );
  }
  return parsed.data.data.map((row, i) => {
    const where = `row ${i + 1}`;
    const percent: Cell = row.netShortPositionInPercent;
    return {
      isin: requireIsin(row.isinCode, where),
      issuer: row.issuerName.trim(),
      holder: row.positionHolder,
      percent: requirePercent(percent, where),
      date: requireDate(row.positionDate, where),
    };
  });
}

/** FIN-FSA's current net short positions (DataTables JSON or its `;` export). */
export const finFsaCurrent = readerOf({
  decode: decodeFinFsa,
  parse: (rows) => snapshotOf('fi-fsa-current', issuersFromNotifications(rows, false), rows.length),
});
