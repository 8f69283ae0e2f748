function note(index, eventId, channel, outcome) {
  let known = index.get(eventId);
  if (!known) {
    known = /* @__PURE__ */ new Map();
    index.set(eventId, known);
  }
  if (!known.has(channel)) known.set(channel, outcome);
}
const messageKey = (channel, deliveryId) => `${channel}\0${deliveryId}`;
function indexOutcomes(deliveries) {
  const index = /* @__PURE__ */ new Map();
  const attempts = new Map(
    deliveries.recorded.map((m) => [messageKey(m.channel, m.deliveryId), m.attempts.length])
  );
  const attemptsOf = (channel, deliveryId, outbox) => attempts.get(messageKey(channel, deliveryId)) ?? outbox;
  for (const m of deliveries.recorded) {
    if (m.acceptedAt === null) continue;
    const outcome = {
      state: "sent",
      at: m.acceptedAt,
      attempts: m.attempts.length,
      deliveryId: m.deliveryId
    };
    for (const id of m.eventIds) note(index, id, m.channel, outcome);
  }
  for (const p of deliveries.parked) {
    const { deliveryId, parkedAt } = p;
    const outcome = {
      state: "parked",
      at: parkedAt,
      attempts: attemptsOf(p.channel, deliveryId, p.attempts),
      deliveryId,
      error: p.lastError ?? null
    };
    for (const id of p.eventIds) note(index, id, p.channel, outcome);
  }
  for (const { channel, inflight } of deliveries.inflight) {
    const { deliveryId } = inflight;
    const outcome = {
      state: "sending",
      attempts: attemptsOf(channel, deliveryId, inflight.attempts),
      deliveryId,
      error: inflight.lastError ?? null
    };
    for (const id of inflight.eventIds) note(index, id, channel, outcome);
  }
  return index;
}
function eventLines(logged, index) {
  const known = index.get(logged.event.id);
  return logged.routes.map((route) => {
    const routed = route.verdict === "send" || route.verdict === "defer" || route.verdict === "stage";
    return {
      channel: route.channel,
      verdict: route.verdict,
      reason: route.reason,
      outcome: routed ? known?.get(route.channel) ?? { state: "queued" } : null
    };
  });
}
export {
  eventLines,
  indexOutcomes
};
