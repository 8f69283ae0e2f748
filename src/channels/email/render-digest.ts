import type { PositionEvent } from '../../positions/types.js';
import { digestIssuers, shortPeriod, topMovers } from '../digest-facts.js';
import { type StoryLine, sourceNote, storyLines, storySentence, totalWithNote } from '../event-story.js';
import { formatPeriod } from '../time.js';
import type { DigestMessage } from '../types.js';
import {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  needsBelowNote,
  oneLineEvent,
  storyRow,
  storyTextLines,
  textEnding,
} from './event-facts.js';
import { escapeHtml, htmlHeading, htmlLayout, htmlList, htmlParagraph, htmlTable } from './html.js';
import type { RenderedEmail } from './rendered.js';
import { linesSummary } from './subject.js';
import { countChanges, toSubject } from './text.js';

/** The changes of one issuer in a digest, one line per holder, with its totals over the period. */
interface IssuerGroup {
  name: string;
  lines: StoryLine[];
  /** `3.40% → 3.52% (+0.12 pp)` over the period. */
  total: string | undefined;
}

function issuerGroups(events: readonly PositionEvent[]): IssuerGroup[] {
  return digestIssuers(events).map(({ issuer, events: group }) => {
    // A flap reads as its sequence, every value in it; other holders one line each.
    const lines = storyLines(group);
    const source = sourceNote(group);
    return {
      name: source ? `${issuer.name} (${source})` : issuer.name,
      lines,
      total: totalWithNote(group, lines),
    };
  });
}

/** `Acme plc: Marshall Wace cut 1.23% → 0.98% (-0.25 pp) on 2024-11-21`. */
function moverLine(event: PositionEvent): string {
  const [line] = storyLines([event]);
  return line ? `${event.issuer.name}: ${storySentence(line)}` : event.issuer.name;
}

/** The scheduled summary of every event staged for a channel over a period. */
export function renderDigest(message: DigestMessage): RenderedEmail {
  const events = message.events.map(oneLineEvent);
  const count = events.length === 0 ? 'no changes' : countChanges(events.length);
  // What the period held, counted by kind (`2 openings, 1 fall below 0.5%`), as an alert's subject does.
  const kinds = events.length === 0 ? '' : ` (${linesSummary(storyLines(events))})`;
  const subject = toSubject(`Short positions digest: ${count}${kinds}, ${shortPeriod(message.period)}`);
  const title = `Short positions digest: ${count}`;
  const periodLine = `Period: ${formatPeriod(message.period, { year: true })}`;
  const footer = `shortwatch digest · ${formatPeriod(message.period, { year: true })}`;

  if (events.length === 0) {
    const empty = 'No changes in this period.';
    const text = [title, periodLine, '', empty, '', '--', footer, ''].join('\n');
    const body = [htmlParagraph(escapeHtml(periodLine), true), htmlParagraph(empty)].join('\n');
    return { subject, text, html: htmlLayout({ title, body, footer }) };
  }

  const movers = topMovers(events).map(moverLine);
  const groups = issuerGroups(events);
  const hasClosed = needsBelowNote(groups.flatMap((g) => g.lines));
  const totalOf = (g: IssuerGroup) => (g.total ? `total disclosed short ${g.total}` : undefined);

  const text = [
    title,
    periodLine,
    ...(movers.length > 0 ? ['', 'Top movers', ...movers.map((line) => `* ${line}`)] : []),
    ...groups.flatMap((g) => [
      '',
      [g.name, totalOf(g)].filter(Boolean).join(': '),
      ...g.lines.flatMap(storyTextLines),
    ]),
    ...textEnding(hasClosed, footer),
  ].join('\n');

  const body = [
    htmlParagraph(escapeHtml(periodLine), true),
    ...(movers.length > 0 ? [htmlHeading('Top movers'), htmlList(movers.map(escapeHtml))] : []),
    ...groups.flatMap((g) => [
      htmlHeading(escapeHtml(g.name)),
      ...(g.total ? [htmlParagraph(escapeHtml(`Total disclosed short ${g.total}`), true)] : []),
      htmlTable(EVENT_COLUMNS, g.lines.map(storyRow)),
    ]),
    ...(hasClosed ? [htmlParagraph(escapeHtml(CLOSED_NOTE), true)] : []),
  ].join('\n');

  return { subject, text, html: htmlLayout({ title, body, footer }) };
}
