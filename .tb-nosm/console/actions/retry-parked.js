async function retryParked(app, target) {
  let retried = 0;
  for (const channel of app.settings.config.channels) {
    if (target.channel && channel.name !== target.channel) continue;
    const here = await app.ctx.outbox.requeue(
      channel.name,
      target.deliveryId ? [target.deliveryId] : void 0
    );
    retried += here;
    if (here > 0 && (await app.ctx.outbox.parked(channel.name)).length === 0)
      await app.ctx.notices.clear(`channel-parked-${channel.name}`, "Parked deliveries were retried.");
  }
  return retried;
}
export {
  retryParked
};
