class EventLogCorruptError extends Error {
  constructor(key, entryId, options = {}) {
    super(`event log entry ${entryId} in ${key} is corrupt`, options);
    this.key = key;
    this.entryId = entryId;
  }
  key;
  entryId;
  name = "EventLogCorruptError";
}
export {
  EventLogCorruptError
};
