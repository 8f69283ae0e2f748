import { parse as parseCsv } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import type { Subscriber, SubscriberInput } from '../routing/subscriber.js';

/** The CSV columns of an import or export, in order; lists are written `a; b; c`. */
export const CSV_COLUMNS = [
  'name',
  'email',
  'webhook',
  'slackUser',
  'issuers',
  'holders',
  'kinds',
  'minValue',
  'minDelta',
  'aggregates',
  'mode',
  'timezone',
  'digestSchedule',
  'paused',
] as const;

const cell = z.string().trim().optional();
const csvRow = z.object(
  Object.fromEntries(CSV_COLUMNS.map((c) => [c, cell])) as Record<(typeof CSV_COLUMNS)[number], typeof cell>,
);

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[;|]/u)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function number(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  return Number(value.replace(',', '.'));
}

function flag(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return /^(1|true|yes|y)$/iu.test(value);
}

/** One CSV row as the input the store checks: empty cells take the defaults. */
function fromCsvRow(row: z.output<typeof csvRow>): SubscriberInput {
  const prefs = {
    kinds: (row.kinds ?? '').split(/[;|,\s]/u).filter((kind) => kind !== ''),
    minValue: number(row.minValue),
    minDelta: number(row.minDelta),
    aggregates: flag(row.aggregates),
    mode: row.mode || undefined,
    timezone: row.timezone || undefined,
    digestSchedule: row.digestSchedule || undefined,
    paused: flag(row.paused),
  };
  return {
    name: row.name ?? '',
    email: row.email ?? '',
    ...(row.webhook ? { webhook: row.webhook } : {}),
    ...(row.slackUser ? { slackUser: row.slackUser } : {}),
    watch: { issuers: list(row.issuers), holders: list(row.holders) },
    prefs: Object.fromEntries(
      Object.entries(prefs).filter(([, v]) => v !== undefined),
    ) as SubscriberInput['prefs'],
  };
}

/** A CSV (header row first, `;` or `,` separated) or a YAML list, as subscriber inputs by row. */
export function readSubscriberFile(
  text: string,
  format: 'csv' | 'yaml',
): Array<{ row: number; input: unknown }> {
  if (format === 'yaml') {
    const parsed: unknown = parseYaml(text);
    const items = Array.isArray(parsed)
      ? parsed
      : z.object({ subscribers: z.array(z.unknown()) }).parse(parsed).subscribers;
    return items.map((input, index) => ({ row: index + 1, input }));
  }
  const firstLine = text.split(/\r?\n/u, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/gu)?.length ?? 0) > (firstLine.match(/,/gu)?.length ?? 0) ? ';' : ',';
  const records: unknown[] = parseCsv(text, {
    columns: true,
    bom: true,
    delimiter,
    skip_empty_lines: true,
    trim: true,
  });
  return records.map((record, index) => {
    const row = csvRow.safeParse(record);
    return { row: index + 2, input: row.success ? fromCsvRow(row.data) : record };
  });
}

/** The subscribers as a CSV another import reads back. */
export function subscribersCsv(subscribers: readonly Subscriber[]): string {
  const rows = subscribers.map((s) => [
    s.name,
    s.email,
    s.webhook ?? '',
    s.slackUser ?? '',
    s.watch.issuers.join('; '),
    s.watch.holders.join('; '),
    s.prefs.kinds.join('; '),
    s.prefs.minValue ?? '',
    s.prefs.minDelta ?? '',
    String(s.prefs.aggregates),
    s.prefs.mode,
    s.prefs.timezone,
    s.prefs.digestSchedule,
    String(s.prefs.paused),
  ]);
  return stringifyCsv([[...CSV_COLUMNS], ...rows]);
}

/** The subscribers as YAML another import reads back (the parts a person sets). */
export function subscribersYaml(subscribers: readonly Subscriber[]): string {
  return stringifyYaml({
    subscribers: subscribers.map(({ name, email, webhook, slackUser, watch, prefs }) => ({
      name,
      email,
      ...(webhook === undefined ? {} : { webhook }),
      ...(slackUser === undefined ? {} : { slackUser }),
      watch,
      prefs,
    })),
  });
}
