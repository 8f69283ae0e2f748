import type { ChannelSender } from './channels/types.js';
import { isUnresolvedSecretError, type UnresolvedSecretError } from './config/unresolved-secret.js';
import type { UpstreamClient } from './upstream/index.js';

/**
 * Builds a part of the app; when a secret it reveals could not be read (a command that sends nothing was
 * loaded without it, config/lazy-secrets.ts), builds `unavailable` instead, so the command runs until it
 * actually needs the secret and then exits 2 naming its key.
 */
export function unlessSecretUnread<T>(build: () => T, unavailable: (error: UnresolvedSecretError) => T): T {
  try {
    return build();
  } catch (error) {
    if (isUnresolvedSecretError(error)) return unavailable(error);
    throw error;
  }
}

/** A channel whose secret could not be read: sending or verifying throws the error naming the key. */
export function unavailableSender(error: UnresolvedSecretError): ChannelSender {
  return {
    send: () => Promise.reject(error),
    coalesce: (groups) => Math.min(1, groups.length),
    verify: () => Promise.reject(error),
    close: async () => undefined,
  };
}

/** An upstream client without its API key: every request throws the error naming the key. */
export function unavailableClient(error: UnresolvedSecretError): UpstreamClient {
  return {
    listIssuers: () => Promise.reject(error),
    getPositions: () => Promise.reject(error),
    close: async () => undefined,
  };
}
