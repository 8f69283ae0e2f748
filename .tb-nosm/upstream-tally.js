import { isAccessRevokedError, isBudgetExhaustedError } from "./budget/index.js";
function purposeOf(role, operation) {
  if (role === "probe") return "probe";
  if (role === "interactive") return "interactive";
  if (operation === "issuers") return "issuer-list";
  return operation === "all" ? "history" : "poll";
}
function talliedClients(clients, tally) {
  const wrap = (role) => {
    const client = clients[role];
    const counted = async (operation, call) => {
      const count = () => void tally.countCall(purposeOf(role, operation)).catch(() => void 0);
      try {
        const result = await call();
        count();
        return result;
      } catch (error) {
        if (!isBudgetExhaustedError(error) && !isAccessRevokedError(error)) count();
        throw error;
      }
    };
    return {
      listIssuers: () => counted("issuers", () => client.listIssuers()),
      getPositions: (issuerId, status) => counted(status === "all" ? "all" : "active", () => client.getPositions(issuerId, status)),
      close: () => client.close()
    };
  };
  return { polling: wrap("polling"), probe: wrap("probe"), interactive: wrap("interactive") };
}
export {
  purposeOf,
  talliedClients
};
