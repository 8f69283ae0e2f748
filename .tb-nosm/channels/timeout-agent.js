import { Agent } from "undici";
function timeoutAgent(timeoutMs) {
  return new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: timeoutMs } });
}
export {
  timeoutAgent
};
