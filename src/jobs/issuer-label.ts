import type { PositionEvent } from '../positions/index.js';
import type { DeliveryPlan } from '../routing/index.js';

/**
 * A poll's delivery plan with the watchlist entry's `label` as the issuer name of every event it
 * commits (event log, outbox, digest staging), so that every message shows the label. Applied after
 * routing, never before: channel filters and mutes name issuers as the upstream does (or by id), and a
 * label must not make them miss. Event ids and holder keys do not contain the issuer name, so a label
 * (or a change of it) never makes an event new. A blank label is no label.
 */
export function withIssuerLabel(plan: DeliveryPlan, label: string | undefined): DeliveryPlan {
  const name = label?.trim();
  if (!name) return plan;
  const labelled = (event: PositionEvent): PositionEvent => ({ ...event, issuer: { ...event.issuer, name } });
  return {
    ...plan,
    targets: plan.targets.map((target) => ({ ...target, events: target.events.map(labelled) })),
    logged: plan.logged.map((entry) => ({ ...entry, event: labelled(entry.event) })),
  };
}
