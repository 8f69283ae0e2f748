class SnapshotCorruptError extends Error {
  constructor(issuerId, key, options = {}) {
    super(`stored snapshot of issuer ${issuerId} (${key}) is corrupt`, options);
    this.issuerId = issuerId;
    this.key = key;
  }
  issuerId;
  key;
  name = "SnapshotCorruptError";
}
function isSnapshotCorruptError(error) {
  return error instanceof SnapshotCorruptError;
}
export {
  SnapshotCorruptError,
  isSnapshotCorruptError
};
