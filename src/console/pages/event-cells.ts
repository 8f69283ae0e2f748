import { KIND_VERB } from '../../channels/format.js';
import type { AggregateKind, PositionEvent } from '../../positions/types.js';
import { displayText, formatDelta, formatPercent, formatThreshold } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { paths } from '../paths.js';

/** What an aggregate or scope event says, in the words of a table cell. */
const AGGREGATE_WORDS = {
  'aggregate-entered': 'aggregate published',
  'aggregate-ended': 'aggregate no longer published',
  'aggregate-changed': 'aggregate moved',
  'aggregate-crossed': 'aggregate crossed a level',
  'aggregate-revised': 'aggregate revised',
  'below-threshold-moved': 'below-threshold interest moved',
  'scope-added': 'added to the scope list',
  'scope-removed': 'removed from the scope list',
  'named-holders-ended': 'named holders no longer published',
} satisfies Record<AggregateKind, string>;

/** The kind of an event in words: an aggregate's own kind, else the verb every channel uses. */
export function kindText(event: PositionEvent): string {
  return event.aggregate ? AGGREGATE_WORDS[event.aggregate.kind] : KIND_VERB[event.kind];
}

/**
 * Where an event was read and, for an aggregate, the threshold it counts from: `register fca`,
 * `from 0.2%`. Empty for an event of the upstream API.
 */
export function originTags(event: PositionEvent): SafeHtml | '' {
  if (event.source === undefined) return '';
  const threshold = event.aggregate?.thresholdPercent;
  return html` <span class="pill">register ${event.source}</span>${threshold === undefined ? '' : html` <span class="pill">from ${formatThreshold(threshold)}</span>`}`;
}

/** The issuer of an event, linked to its page (a register event's register page). */
export function issuerLink(event: PositionEvent): SafeHtml {
  return html`<a href="${paths.eventIssuer(event)}">${displayText(event.issuer.name)}</a>`;
}

/** The holder of an event: a link to the holder's page, or for an aggregate (no holder) its name as text. */
export function holderCell(event: PositionEvent): SafeHtml {
  if (event.aggregate) return html`${displayText(event.holder)}`;
  return html`<a href="${paths.holder(event.holderKey)}">${displayText(event.holder)}</a>`;
}

/** A scope list's event: a share added or removed, with no value of its own. */
function isScope(event: PositionEvent): boolean {
  const kind = event.aggregate?.kind;
  return kind === 'scope-added' || kind === 'scope-removed';
}

/** The value before, as a cell: `-` for an opening or a scope event. */
export function fromText(event: PositionEvent): string {
  if (!event.previous || isScope(event)) return '-';
  return formatPercent(event.previous.value);
}

/**
 * The value after, as a cell: an aggregate no longer published is under its threshold (never 0%); a
 * named position gone is under 0.5%.
 */
export function toText(event: PositionEvent): string {
  const facts = event.aggregate;
  if (facts?.kind === 'aggregate-ended') return `under ${formatPercent(facts.thresholdPercent ?? 0)}`;
  if (isScope(event)) return '-';
  // The register stopped naming holders: nothing is known of where their positions went.
  if (facts?.kind === 'named-holders-ended') return 'not named';
  return event.current ? formatPercent(event.current.value) : '<0.5%';
}

/** The change in percentage points, or `-` where the event has none (a close, an end, a scope event). */
export function deltaText(event: PositionEvent): string {
  const ended =
    event.aggregate?.kind === 'aggregate-ended' || event.aggregate?.kind === 'named-holders-ended';
  if (event.kind === 'closed' || ended || isScope(event)) return '-';
  return formatDelta(event.delta);
}
