import type { SendProgress } from './types.js';

/** ` (part 2/3)` for a message sent in several parts, else empty: where a failure happened. */
export function partWhere(index: number, total: number): string {
  return total > 1 ? ` (part ${index + 1}/${total})` : '';
}

/**
 * Sends the parts of one message in order, from the first one no earlier attempt sent, recording each
 * before the next goes: a retry resumes after the parts already out instead of sending them twice.
 */
export async function sendInParts<P>(
  parts: readonly P[],
  progress: SendProgress | undefined,
  sendOne: (part: P, where: string, resumed: boolean) => Promise<void>,
): Promise<void> {
  const from = progress?.partsSent ?? 0;
  for (let index = from; index < parts.length; index++) {
    const part = parts[index];
    if (part === undefined) continue;
    await sendOne(part, partWhere(index, parts.length), index > from);
    await progress?.onPartSent?.(index + 1);
  }
}
