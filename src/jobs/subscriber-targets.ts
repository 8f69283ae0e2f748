import type { PositionEvent } from '../positions/types.js';
import { type DeliveryPlan, type Mute, routeOptionsOf } from '../routing/index.js';
import { planSubscribers, subscriberTemplates } from '../routing/plan-subscribers.js';
import type { JobContext, Settings } from './context.js';

/**
 * The outbox targets of one commit's events among the subscribers who follow them: the fan-out index
 * names the candidates (work in proportion to them, not to every subscriber), routing decides as for a
 * configured channel. Nothing without a `subscribers` section or without events.
 */
export async function subscriberTargets(
  ctx: Pick<JobContext, 'subscribers' | 'now'>,
  config: Settings['config'],
  events: readonly PositionEvent[],
  mutes: readonly Mute[],
): Promise<DeliveryPlan['targets']> {
  const templates = subscriberTemplates(config);
  if (!templates || events.length === 0) return [];
  const issuers = [...new Map(events.map((event) => [event.issuer.id, event.issuer])).values()];
  const candidates = await ctx.subscribers.candidates(issuers);
  return planSubscribers(events, candidates, templates, mutes, ctx.now(), routeOptionsOf(config));
}
