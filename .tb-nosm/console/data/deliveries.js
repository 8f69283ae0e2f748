async function channelNames(app) {
  const configured = app.settings.config.channels.map((c) => c.name);
  const removed = (await app.ctx.channels.names()).filter((name) => !configured.includes(name));
  return [...configured, ...removed];
}
async function outboxState(app) {
  const names = await channelNames(app);
  const parked = (await Promise.all(names.map((name) => app.ctx.outbox.parked(name)))).flat();
  const inflight = (await Promise.all(
    names.map(async (channel) => {
      const found = await app.ctx.outbox.inflight(channel);
      return found ? [{ channel, inflight: found }] : [];
    })
  )).flat();
  return { parked, inflight };
}
export {
  channelNames,
  outboxState
};
