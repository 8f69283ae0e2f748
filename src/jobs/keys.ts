/** Redis keys of the daemon's own state (snapshots, budget and mutes keep theirs beside their code). */
export function stateKeys(prefix: string) {
  return {
    directory: `${prefix}:directory`,
    directoryMeta: `${prefix}:directory:meta`,
    sweep: `${prefix}:sweep`,
    missing: (issuerId: string) => `${prefix}:missing:${issuerId}`,
    notices: `${prefix}:notices`,
    digestStaged: (channel: string) => `${prefix}:digest:${channel}:staged`,
    digestBatch: (channel: string) => `${prefix}:digest:${channel}:batch`,
    digestMeta: (channel: string) => `${prefix}:digest:${channel}:meta`,
    digestSeen: (channel: string) => `${prefix}:digest:${channel}:seen`,
    digestSent: (batchId: string) => `${prefix}:digest-sent:${batchId}`,
    workers: `${prefix}:workers`,
    configFingerprint: `${prefix}:config-fingerprint`,
  };
}

/** The state keys of one deployment. */
export type StateKeys = ReturnType<typeof stateKeys>;
