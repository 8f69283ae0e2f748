import type { z } from 'zod';
import { SchemaError, type UpstreamErrorContext } from './errors.js';

const MAX_ISSUES = 3;
const MAX_SUMMARY_CHARS = 300;

/** Decodes a 2xx body as UTF-8 JSON and validates it whole; anything else is a {@link SchemaError}. */
export function parseBody<T>(
  bytes: Buffer,
  schema: z.ZodType<T>,
  context: UpstreamErrorContext,
  redact: (text: string) => string,
): T {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new SchemaError('body is not valid JSON', context);
  }
  const result = schema.safeParse(json);
  if (!result.success) throw new SchemaError(redact(summarizeIssues(result.error.issues)), context);
  return result.data;
}

/** A short, body-free description of the first few zod issues: `data[0].value: expected number; ...`. */
export function summarizeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  const more = issues.length > MAX_ISSUES ? ` (+${issues.length - MAX_ISSUES} more)` : '';
  const text = `${shown.join('; ')}${more}`;
  return text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS - 1)}…` : text;
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}
