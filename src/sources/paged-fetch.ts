import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { RegisterFetchConfig, RegisterKind } from '../config/schema/sources.js';
import { decodeText } from './decode.js';
import { RegisterReadError } from './errors.js';
import { type FetchOutcome, fetchRegister } from './fetch.js';

/** How a register that answers a form POST is asked (every kind without one is one conditional GET). */
export type RegisterRequest = (
  url: string,
  limits: Pick<RegisterFetchConfig, 'timeout' | 'maxBytes' | 'pageSize'>,
  dispatcher?: Dispatcher,
) => Promise<FetchOutcome>;

/**
 * KNF's JSON API (`rss_pub/JSON`): a POST whose form field `request` asks one page (`limit`, `offset`)
 * of `method`; the reply says the `total`. Pages are asked until the records reach it and joined into
 * one reply, so the parser reads the whole register or nothing. A page that is not the JSON reply (an
 * error page) is handed on as it came, for the health check to refuse; a total that changes between
 * pages is `truncated` (the register moved while it was read: the next read starts again).
 */
export function knfPages(method: 'Default' | 'RssHTable'): RegisterRequest {
  return async (url, limits, dispatcher) => {
    const records: unknown[] = [];
    let total: number | undefined;
    let bytes = 0;
    for (let page = 0; total === undefined || records.length < total; page++) {
      const form = `request=${encodeURIComponent(JSON.stringify(knfRequest(method, limits.pageSize, records.length)))}`;
      const fetched = await fetchRegister(url, {}, limits, dispatcher, { form });
      if (fetched.status !== 'fetched') return fetched;
      bytes += fetched.bytes.byteLength;
      if (bytes > limits.maxBytes)
        throw new RegisterReadError('too-large', `the pages pass ${limits.maxBytes} bytes`);
      const reply = knfReply(fetched.bytes);
      if (reply === undefined) return fetched;
      if (total !== undefined && reply.total !== total) {
        throw new RegisterReadError(
          'truncated',
          `the total moved from ${total} to ${reply.total} between pages`,
        );
      }
      total = reply.total;
      if (reply.records.length === 0 && records.length < total) {
        throw new RegisterReadError(
          'truncated',
          `page ${page + 1} is empty at ${records.length} of ${total} records`,
        );
      }
      records.push(...reply.records);
    }
    const joined = Buffer.from(JSON.stringify({ status: 'success', total, records }));
    return { status: 'fetched', bytes: joined, contentType: 'application/json', validators: {} };
  };
}

function knfRequest(method: string, limit: number, offset: number): Record<string, unknown> {
  return {
    cmd: 'get',
    method,
    limit,
    offset,
    sort: [{ field: 'POSITION_DATE', direction: 'desc' }],
  };
}

const pageSchema = z.object({ total: z.number().int().min(0).optional(), records: z.array(z.unknown()) });

/** A page's records and total, or undefined when the page is not KNF's JSON reply. */
function knfReply(bytes: Uint8Array): { total: number; records: unknown[] } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(decodeText(bytes, 'utf-8'));
  } catch {
    return undefined;
  }
  const page = pageSchema.safeParse(json);
  if (!page.success) return undefined;
  return { total: page.data.total ?? page.data.records.length, records: page.data.records };
}

// The export endpoint (`…/current/export`) takes the same body plus the columns it writes.
const FI_FORM = [
  'draw=1',
  'start=0',
  'lang=en',
  'exportOptions[columnData][positionHolder]=Position holder',
  'exportOptions[columnData][issuerName]=Name of the issuer',
  'exportOptions[columnData][isinCode]=ISIN',
  'exportOptions[columnData][netShortPositionInPercent]=Net short position (%)',
  'exportOptions[columnData][positionDate]=Date',
  'exportOptions[lang]=en',
]
  .map((pair) => pair.split('=').map(encodeURIComponent).join('='))
  .join('&');

/** FIN-FSA's DataTables endpoint: one POST of the whole current list (`length` well above its size). */
export function dataTablesPost(): RegisterRequest {
  return (url, limits, dispatcher) =>
    fetchRegister(url, {}, limits, dispatcher, {
      form: `${FI_FORM}&length=${limits.pageSize}`,
    });
}

/** The kinds asked by a POST rather than a conditional GET. */
export const REGISTER_REQUESTS: Partial<Record<RegisterKind, RegisterRequest>> = {
  'pl-knf-json-current': knfPages('Default'),
  'pl-knf-json-history': knfPages('RssHTable'),
  'fi-fsa-current': dataTablesPost(),
};
