import { isUnresolvedSecretError } from "./config/unresolved-secret.js";
function unlessSecretUnread(build, unavailable) {
  try {
    return build();
  } catch (error) {
    if (isUnresolvedSecretError(error)) return unavailable(error);
    throw error;
  }
}
function unavailableSender(error) {
  return {
    send: () => Promise.reject(error),
    coalesce: (groups) => Math.min(1, groups.length),
    verify: () => Promise.reject(error),
    close: async () => void 0
  };
}
function unavailableClient(error) {
  return {
    listIssuers: () => Promise.reject(error),
    getPositions: () => Promise.reject(error),
    close: async () => void 0
  };
}
export {
  unavailableClient,
  unavailableSender,
  unlessSecretUnread
};
