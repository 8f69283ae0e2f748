import { z } from "zod";
const opsSchema = z.strictObject({
  channel: z.string().optional().describe(
    "Name of the channel that receives operator notices and the heartbeat, and no events (its filter is not used). Without one, critical notices go to every immediate channel but webhooks, and the others to the log, `status` and `/readyz` only (`shortwatch check` warns)."
  ),
  heartbeat: z.string().optional().describe("Cron pattern (UTC) of a heartbeat message proving the daemon and its delivery path live.")
}).describe("The operator channel and its heartbeat.");
export {
  opsSchema
};
