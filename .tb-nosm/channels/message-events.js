function messageEvents(message) {
  switch (message.type) {
    case "events":
    case "digest":
      return message.events;
    case "batch":
      return message.groups.flatMap((group) => group.events);
    default:
      return [];
  }
}
function messageIssuers(message) {
  const seen = /* @__PURE__ */ new Map();
  if (message.type === "events") seen.set(message.issuer.id, message.issuer);
  for (const event of messageEvents(message))
    if (!seen.has(event.issuer.id)) seen.set(event.issuer.id, event.issuer);
  return [...seen.values()];
}
export {
  messageEvents,
  messageIssuers
};
