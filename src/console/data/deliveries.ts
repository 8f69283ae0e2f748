import type { App } from '../../app.js';
import type { Inflight, Parked } from '../../state/outbox.js';

/** The configured channels, then those removed from the config that still hold queued or parked work. */
export async function channelNames(app: App): Promise<string[]> {
  const configured = app.settings.config.channels.map((c) => c.name);
  const removed = (await app.ctx.channels.names()).filter((name) => !configured.includes(name));
  return [...configured, ...removed];
}

/** Every channel's parked messages and its message in flight. */
export async function outboxState(
  app: App,
): Promise<{ parked: Parked[]; inflight: Array<{ channel: string; inflight: Inflight }> }> {
  const names = await channelNames(app);
  const parked = (await Promise.all(names.map((name) => app.ctx.outbox.parked(name)))).flat();
  const inflight = (
    await Promise.all(
      names.map(async (channel) => {
        const found = await app.ctx.outbox.inflight(channel);
        return found ? [{ channel, inflight: found }] : [];
      }),
    )
  ).flat();
  return { parked, inflight };
}
