function recordedMessages(rows) {
  const byDelivery = /* @__PURE__ */ new Map();
  for (const row of rows) {
    const key = `${row.channel}\0${row.deliveryId}`;
    byDelivery.set(key, [...byDelivery.get(key) ?? [], row]);
  }
  return [...byDelivery.values()].map((attempts) => messageOf([...attempts].sort((a, b) => a.at - b.at || a.id.localeCompare(b.id)))).sort((a, b) => b.lastAt - a.lastAt);
}
function messageOf(attempts) {
  const last = attempts[attempts.length - 1];
  const accepted = attempts.filter((a) => a.answer === "ok").at(-1);
  return {
    channel: last.channel,
    deliveryId: last.deliveryId,
    messageId: last.messageId,
    type: last.type,
    issuers: last.issuers,
    holders: last.holders,
    kinds: last.kinds,
    events: last.events,
    eventIds: last.eventIds ?? [],
    attempts,
    acceptedAt: accepted?.at ?? null,
    lastAt: last.at
  };
}
export {
  recordedMessages
};
