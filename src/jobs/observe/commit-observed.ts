import type { DiffResult, PositionEvent, Snapshot } from '../../positions/index.js';
import { tellStories } from '../../positions/threshold-story.js';
import {
  type DeliveryPlan,
  type Mute,
  planDelivery,
  recordFallsTold,
  routeOptionsOf,
} from '../../routing/index.js';
import { commitPoll } from '../../state/poll-commit.js';
import type { JobContext, Settings } from '../context.js';
import { withIssuerLabel } from '../issuer-label.js';
import type { RegimeDrop } from '../registers/register-diff.js';
import { subscriberTargets } from '../subscriber-targets.js';
import { planRegimeEvent } from './regime-event.js';

/**
 * One issuer's observed change, from any source: the snapshot it moves from, the diff of what the
 * source shows now against it, and what joins the named events on the way to the one commit.
 */
export interface ObservedChange {
  previous: Snapshot | null;
  diff: DiffResult;
  /** Aggregate and scope events: never read against 0.5%, so they join after the stories. */
  aggregates?: readonly PositionEvent[];
  /** The issuer's named holders are no longer published: one event stands for its closes. */
  regime?: { drop: RegimeDrop; event: PositionEvent };
  /** Fields the committed snapshot carries beside the diff's (the API's version and history summary). */
  snapshot?: Partial<Snapshot>;
  /** The watchlist entry's label, shown as the issuer's name once routing decided (the API). */
  label?: string | undefined;
  /** Where a register keeps the snapshot; absent: the API's snapshot of the issuer. */
  store?: { snapshot: string; written: string; member: string };
}

/** What committing one observed change did. */
export interface CommitOutcome {
  /** False when another read of the issuer committed first (the snapshot moved under it). */
  committed: boolean;
  /** The events told (after the stories), whether committed or not. */
  told: number;
  /** The events logged by this commit (0 when it lost the race). */
  logged: number;
}

/**
 * The tail every source's observation goes through: the stories of its named events (told against
 * the snapshot's memory), the aggregate events beside them, routing (filters, mutes, quiet hours:
 * decided once), a regime event where the closes it stands for would have gone, the per-channel told
 * record, and one atomic commit of the snapshot with the event log and the outbox items.
 */
export async function commitObserved(
  ctx: JobContext,
  settings: Settings,
  change: ObservedChange,
  mutes?: readonly Mute[],
): Promise<CommitOutcome> {
  const { config } = settings;
  const now = ctx.now();
  const told = tellStories(change.diff.events, change.previous?.memory ?? {}, now, {
    reopenWindowMs: config.alerts.reopenWindow,
    flapWindowMs: config.alerts.flapWindow,
  });
  const events = [...told.events, ...(change.aggregates ?? [])];
  // An API issuer polled only for subscribers reaches them only, not the configured channels.
  const subscribersOnly =
    change.store === undefined && settings.subscriberOnly?.has(change.diff.next.issuerId);
  const routing = {
    channels: subscribersOnly ? [] : config.channels,
    mutes: mutes ?? (events.length > 0 || change.regime ? await ctx.mutes.list() : []),
    now,
    options: routeOptionsOf(config),
  };
  const routed = planDelivery(events, routing.channels, routing.mutes, routing.now, routing.options);
  const plan = withIssuerLabel(withRegimeEvent(routed, change.regime, routing), change.label);
  const memory = recordFallsTold(told.memory, plan.logged);
  const committed = await commitPoll(ctx.redis, ctx.prefix, {
    snapshot: {
      ...change.diff.next,
      ...change.snapshot,
      ...(Object.keys(memory).length > 0 ? { memory } : {}),
    },
    expectedPolledAt: change.previous?.polledAt ?? null,
    logged: plan.logged,
    targets: [
      ...plan.targets,
      ...(await subscriberTargets(
        ctx,
        config,
        plan.logged.map(({ event }) => event),
        routing.mutes,
      )),
    ],
    suppressed: plan.suppressed,
    eventsKept: config.poll.eventsKept,
    ...(change.store === undefined ? {} : { store: change.store }),
  });
  if (committed) for (const { event } of plan.logged) ctx.metrics.events.inc({ kind: event.kind });
  return { committed, told: events.length, logged: committed ? plan.logged.length : 0 };
}

/** The plan with the regime event added where the closes it stands for would have gone. */
function withRegimeEvent(
  plan: DeliveryPlan,
  regime: ObservedChange['regime'],
  routing: Parameters<typeof planRegimeEvent>[2],
): DeliveryPlan {
  if (regime === undefined) return plan;
  const own = planRegimeEvent(regime.drop, regime.event, routing);
  const targets = [...plan.targets];
  for (const target of own.targets) {
    const same = targets.findIndex(
      (t) => t.type === target.type && t.channel === target.channel && t.readyAt === target.readyAt,
    );
    const existing = targets[same];
    if (existing) targets[same] = { ...existing, events: [...existing.events, ...target.events] };
    else targets.push(target);
  }
  return { ...plan, targets, logged: [...plan.logged, ...own.logged] };
}
