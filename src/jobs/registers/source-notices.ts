/** The notice of a register source whose last read was refused (HTML page, truncated, shrank…). */
export function sourceNotReadKey(source: string): string {
  return `source-not-read-${source}`;
}
