import { displayText } from "./format.js";
function summarise(message) {
  switch (message.type) {
    case "events":
      return `${message.events.length} events in ${displayText(message.issuer.name)}`;
    case "batch":
      return `${message.groups.reduce((n, g) => n + g.events.length, 0)} events in ${message.groups.length} issuers`;
    case "digest":
      return `digest of ${message.events.length} events`;
    default:
      return message.type;
  }
}
export {
  summarise
};
