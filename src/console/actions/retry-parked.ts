import type { App } from '../../app.js';

/**
 * Puts parked messages back at the front of their outboxes (all, or one delivery id; all channels or
 * one), as `shortwatch deliveries retry` does: the same Outbox.requeue under the same delivery ids, and
 * a channel's parked notice cleared once nothing of it stays parked. Only configured channels: a removed
 * one has no deliverer to send what is requeued. Returns how many were requeued.
 */
export async function retryParked(
  app: App,
  target: { channel?: string; deliveryId?: string },
): Promise<number> {
  let retried = 0;
  for (const channel of app.settings.config.channels) {
    if (target.channel && channel.name !== target.channel) continue;
    const here = await app.ctx.outbox.requeue(
      channel.name,
      target.deliveryId ? [target.deliveryId] : undefined,
    );
    retried += here;
    if (here > 0 && (await app.ctx.outbox.parked(channel.name)).length === 0)
      await app.ctx.notices.clear(`channel-parked-${channel.name}`, 'Parked deliveries were retried.');
  }
  return retried;
}
