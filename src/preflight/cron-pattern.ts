import { CronExpressionParser } from 'cron-parser';

// cron-parser fills the fields a pattern leaves out ("0 7 * *" becomes every minute of midnight on the
// 7th) and reads only the first two ends of a range ("mon-fri-sat" becomes Monday to Friday), without a
// word. Both are refused here, so a schedule runs when its text says or not at all.
const MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly']);
const RANGE_WITH_THREE_ENDS = /^[^/]*-[^/]*-/;

/**
 * Why `pattern` cannot schedule a job, or undefined when it can. It is read by the parser BullMQ's job
 * schedulers use (cron-parser, the same version, in `timezone`), so what passes here is what
 * `upsertJobScheduler` accepts; a pattern the parser would silently read otherwise is refused too. Pure.
 */
export function cronPatternProblem(pattern: string, timezone: string): string | undefined {
  const fields = pattern.trim().split(/\s+/).filter(Boolean);
  const macro = fields.length === 1 && MACROS.has(fields[0]?.toLowerCase() ?? '');
  if (!macro && (fields.length < 5 || fields.length > 6)) {
    return `has ${fields.length} fields; a cron pattern has 5 (minute hour day-of-month month day-of-week), or 6 with seconds first`;
  }
  const cut = fields.flatMap((field) => field.split(',')).find((part) => RANGE_WITH_THREE_ENDS.test(part));
  if (cut !== undefined) return `the range "${cut}" has more than two ends`;
  try {
    // A fixed start: the question is whether the pattern ever fires, not when it fires next.
    CronExpressionParser.parse(pattern, { tz: timezone, currentDate: new Date(Date.UTC(2000, 0, 1)) }).next();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** When `pattern` next fires after `from`, in `timezone`; undefined when it cannot schedule a job. Pure. */
export function nextCronRun(pattern: string, timezone: string, from: Date): Date | undefined {
  if (cronPatternProblem(pattern, timezone) !== undefined) return undefined;
  return CronExpressionParser.parse(pattern, { tz: timezone, currentDate: from }).next().toDate();
}
