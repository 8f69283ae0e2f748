/** The notice of a register source whose last read was refused (HTML page, truncated, shrank…). */
export function sourceNotReadKey(source: string): string {
  return `source-not-read-${source}`;
}

/** The notice of a register source without a good read for too long (or never read since this process started). */
export function sourceStaleKey(source: string): string {
  return `source-stale-${source}`;
}
