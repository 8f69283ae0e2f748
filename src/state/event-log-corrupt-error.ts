/** An entry of the event log is not a valid event; the stream key and entry id say which one. */
export class EventLogCorruptError extends Error {
  override readonly name = 'EventLogCorruptError';

  constructor(
    readonly key: string,
    readonly entryId: string,
    options: { cause?: unknown } = {},
  ) {
    super(`event log entry ${entryId} in ${key} is corrupt`, options);
  }
}
