import { formatInstant } from '../time.js';
import type { EventsMessage } from '../types.js';
import {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  eventHeadline,
  eventRow,
  eventTextLines,
  issuerTotals,
  oneLineEvent,
  totalChange,
} from './event-facts.js';
import { escapeHtml, htmlLayout, htmlParagraph, htmlTable } from './html.js';
import type { RenderedEmail, RenderOptions } from './rendered.js';
import { countChanges, oneLine, toSubject } from './text.js';

/** The email of one issuer's events from one poll. */
export function renderEvents(message: EventsMessage, options: RenderOptions): RenderedEmail {
  const issuerName = oneLine(message.issuer.name);
  const events = message.events.map(oneLineEvent);
  const [only] = events;
  const headline =
    events.length === 1 && only ? eventHeadline(only) : `${countChanges(events.length)} in ${issuerName}`;
  const total = issuerTotals(events);
  const totalLine = total ? `Total disclosed short in ${issuerName}: ${totalChange(total)}` : undefined;
  const hasClosed = events.some((e) => e.kind === 'closed');
  const newest = events
    .map((e) => e.detectedAt)
    .sort()
    .at(-1);
  const detected = newest ? ` · detected ${formatInstant(newest, options.timezone, { year: true })}` : '';
  const footer = `shortwatch · issuer ${oneLine(message.issuer.id)}${detected} (${options.timezone})`;

  const text = [
    headline,
    '',
    ...events.flatMap(eventTextLines),
    ...(totalLine ? ['', totalLine] : []),
    ...(hasClosed ? ['', CLOSED_NOTE] : []),
    '',
    '--',
    footer,
    '',
  ].join('\n');

  const body = [
    htmlTable(EVENT_COLUMNS.map(escapeHtml), events.map(eventRow)),
    ...(totalLine ? [htmlParagraph(`<strong>${escapeHtml(totalLine)}</strong>`)] : []),
    ...(hasClosed ? [htmlParagraph(escapeHtml(CLOSED_NOTE), true)] : []),
  ].join('\n');

  return { subject: toSubject(headline), text, html: htmlLayout({ title: headline, body, footer }) };
}
