import { EXPORT_FORMATS, type ExportFormat, exportChunks } from '../../record/export.js';
import type { RecordQuery } from '../../record/search.js';
import { parseInstant } from '../../record/time-range.js';
import { DeliveryRecord } from '../../state/delivery-record.js';
import type { CommandContext } from '../context.js';
import { withApp } from '../context.js';
import { CliError, EXIT } from '../exit.js';

/** The options of `shortwatch deliveries export`. */
export interface ExportOptions {
  since: string;
  until?: string;
  channel?: string;
  issuer?: string;
  holder?: string;
  format?: string;
  asOf?: string;
}

function instant(text: string, option: string, nowMs: number, endOfDay: boolean): number {
  const at = parseInstant(text, nowMs, endOfDay);
  if (at === undefined)
    throw new CliError(
      `${option} "${text}" is not a date, a date-time or a duration (e.g. 2026-11-01, 7d)`,
      EXIT.usage,
    );
  return at;
}

/** The query and format the options name; usage errors name the option. */
export function exportQuery(
  options: ExportOptions,
  nowMs: number,
): { query: RecordQuery; format: ExportFormat } {
  const format = EXPORT_FORMATS.find((f) => f === (options.format ?? 'csv'));
  if (!format) throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`, EXIT.usage);
  const sinceMs = instant(options.since, '--since', nowMs, false);
  const until = options.until === undefined ? nowMs : instant(options.until, '--until', nowMs, true);
  // As of a time: what had been told by then (its messages carried only events seen by then).
  const untilMs =
    options.asOf === undefined ? until : Math.min(until, instant(options.asOf, '--as-of', nowMs, true));
  if (untilMs < sinceMs) throw new CliError('--until is before --since', EXIT.usage);
  const { channel, issuer, holder } = options;
  const filters = {
    ...(channel ? { channel } : {}),
    ...(issuer ? { issuer } : {}),
    ...(holder ? { holder } : {}),
  };
  return { query: { sinceMs, untilMs, ...filters }, format };
}

/**
 * `shortwatch deliveries export --since --until [--channel] [--format csv|jsonl]`: the record of sent
 * messages on standard output, one row per attempt's answer, oldest first.
 */
export async function exportCommand(ctx: CommandContext, options: ExportOptions): Promise<void> {
  await withApp(ctx, async (app) => {
    const { query, format } = exportQuery(options, app.ctx.now().getTime());
    const record = new DeliveryRecord(app.redis, app.ctx.prefix);
    // Each chunk ends with its line break; `out` adds one of its own.
    for await (const chunk of exportChunks(record, query, format)) ctx.out(chunk.slice(0, -1));
  });
}
