import { BEAT_MS } from "./beat.js";
function refusalCheckLine(outcome) {
  if (outcome.answered) {
    return {
      level: "info",
      message: "an interactive command was refused with this key; the upstream accepts it: polling goes on"
    };
  }
  return { level: "warn", message: "checked the key an interactive command saw refused" };
}
function refusalConfirmation(deps) {
  return {
    name: "refusal-confirmation",
    periodMs: BEAT_MS,
    reads: "the access record (a confirmation asked for by a command)",
    writes: "one probe request; on a 401/403 the access record and the `access-revoked` notice (the guard)",
    failure: "could not check a refusal an interactive command saw",
    run: async () => {
      if (!await deps.access.takeConfirmation(deps.fingerprint())) return;
      const outcome = await deps.probe().listIssuers().then(
        () => ({ answered: true }),
        (error) => ({ answered: false, error })
      );
      const line = refusalCheckLine(outcome);
      if (line.level === "info") deps.logger.info(line.message);
      else deps.logger.warn({ err: "error" in outcome ? outcome.error : void 0 }, line.message);
    }
  };
}
export {
  refusalCheckLine,
  refusalConfirmation
};
