import { jsonChannelMessage, stringifyVisible } from "../format.js";
import { coalesceConsole } from "./coalesce.js";
function renderConsoleLine(channel, message, deliveryId) {
  const id = deliveryId === void 0 ? {} : { deliveryId };
  return `${stringifyVisible({ channel, ...id, ...jsonChannelMessage(message) })}
`;
}
function consoleChannelFactory(out = process.stdout) {
  return (config) => ({
    async send(message, progress) {
      out.write(renderConsoleLine(config.name, message, progress?.deliveryId));
    },
    coalesce: coalesceConsole,
    async verify() {
      return "console: JSON lines on standard output";
    },
    async close() {
    }
  });
}
export {
  consoleChannelFactory,
  renderConsoleLine
};
