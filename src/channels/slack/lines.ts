import type { Disclosure, EventKind, PositionEvent } from '../../positions/types.js';
import { closedDetail, describeEvent, formatDelta, formatPercent, KIND_VERB, round4 } from '../format.js';
import { escapeMrkdwn, shortenForEscaped } from './escape.js';

/** One emoji per kind, all distinct; `closed` is neutral because the position is not known to be covered. */
export const KIND_EMOJI: Record<EventKind, string> = {
  opened: ':new:',
  increased: ':arrow_up:',
  decreased: ':arrow_down:',
  closed: ':white_circle:',
};

// Far beyond any real legal name; the cap keeps every line inside one section.
const NAME_MAX = 600;

/** An upstream name, escaped, and shortened only past {@link NAME_MAX} characters. */
export function displayName(raw: string): string {
  return escapeMrkdwn(shortenForEscaped(raw, NAME_MAX));
}

/** `crossed 1%, 2%`, or undefined when the event crossed no threshold. */
export function crossedText(event: PositionEvent): string | undefined {
  if (event.thresholdsCrossed.length === 0) return undefined;
  return `crossed ${event.thresholdsCrossed.map((t) => `${round4(t)}%`).join(', ')}`;
}

function percent(disclosure: Disclosure | null): string {
  return formatPercent(disclosure?.value ?? 0);
}

/** What happened, after the holder's name: the kind, old → new value, change and position date. */
function change(event: PositionEvent): string {
  switch (event.kind) {
    case 'opened':
      return `opened *${percent(event.current)}* (${formatDelta(event.delta)}) · ${event.current?.date ?? '?'}`;
    case 'increased':
    case 'decreased':
      return `${KIND_VERB[event.kind]} ${percent(event.previous)} → *${percent(event.current)}* (${formatDelta(event.delta)}) · ${event.current?.date ?? '?'}`;
    case 'closed': {
      // A change in pp would pretend to know where the position went: say what is known instead.
      const { final, previous } = event;
      const differs = final && previous && (final.value !== previous.value || final.date !== previous.date);
      const was = differs ? ` (was ${percent(previous)} on ${previous.date})` : '';
      return `closed · fell below the 0.5% disclosure threshold · ${closedDetail(event)}${was}`;
    }
  }
}

/** One mrkdwn line per event: emoji, *holder*, kind, old → new, change, date, thresholds crossed. */
export function eventLine(event: PositionEvent): string {
  const crossed = crossedText(event);
  const line = `${KIND_EMOJI[event.kind]} *${displayName(event.holder)}* ${change(event)}`;
  return crossed ? `${line} · ${crossed}` : line;
}

/** The event's plain sentence (describeEvent), escaped, with the thresholds crossed. */
export function eventSentence(event: PositionEvent): string {
  const capped: PositionEvent = {
    ...event,
    holder: shortenForEscaped(event.holder, NAME_MAX),
    issuer: { ...event.issuer, name: shortenForEscaped(event.issuer.name, NAME_MAX) },
  };
  const crossed = crossedText(event);
  const sentence = escapeMrkdwn(describeEvent(capped));
  return crossed ? `${sentence}; ${crossed}` : sentence;
}

/** `1.20% → 1.50% (+0.30 pp)`. */
export function totalChange(total: { before: number; after: number }): string {
  return `${formatPercent(total.before)} → ${formatPercent(total.after)} (${formatDelta(total.after - total.before)})`;
}
