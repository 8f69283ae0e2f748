import { shortPeriod } from '../digest-facts.js';
import { storySentence } from '../event-story.js';
import {
  type DigestDocument,
  type IssuerSection,
  storyDocumentOf,
  totalWithNoteOf,
} from '../story-document.js';
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

/** An issuer's heading in a digest: its name, and the register when it has one. */
function sectionName(section: IssuerSection): string {
  return section.source ? `${section.issuer.name} (${section.source})` : section.issuer.name;
}

/** `Acme plc: Marshall Wace cut 1.23% → 0.98% (-0.25 pp) on 2024-11-21`. */
function moverLine(mover: DigestDocument['movers'][number]): string {
  return `${mover.event.issuer.name}: ${storySentence(mover.line)}`;
}

/** The digest of a message, for a caller holding one (names folded onto one line). */
export function renderDigest(message: DigestMessage): RenderedEmail {
  const document = storyDocumentOf({ ...message, events: message.events.map(oneLineEvent) });
  if (document.type !== 'digest') throw new Error('a digest message makes a digest document');
  return digestEmail(document);
}

/** The scheduled summary of every event staged for a channel over a period. */
export function digestEmail(document: DigestDocument): RenderedEmail {
  const { events } = document;
  const count = events.length === 0 ? 'no changes' : countChanges(events.length);
  // What the period held, counted by kind (`2 openings, 1 fall below 0.5%`), as an alert's subject does.
  const kinds = events.length === 0 ? '' : ` (${linesSummary(document.sections.flatMap((g) => g.lines))})`;
  const subject = toSubject(`Short positions digest: ${count}${kinds}, ${shortPeriod(document.period)}`);
  const title = `Short positions digest: ${count}`;
  const periodLine = `Period: ${formatPeriod(document.period, { year: true })}`;
  const footer = `shortwatch digest · ${formatPeriod(document.period, { year: true })}`;

  if (events.length === 0) {
    const empty = 'No changes in this period.';
    const text = [title, periodLine, '', empty, '', '--', footer, ''].join('\n');
    const body = [htmlParagraph(escapeHtml(periodLine), true), htmlParagraph(empty)].join('\n');
    return { subject, text, html: htmlLayout({ title, body, footer }) };
  }

  const movers = document.movers.map(moverLine);
  const groups = document.sections;
  const hasClosed = needsBelowNote(groups.flatMap((g) => g.lines));
  const totalOf = (g: IssuerSection) => {
    const total = totalWithNoteOf(g);
    return total ? `total disclosed short ${total}` : undefined;
  };
  const totalHtml = (g: IssuerSection) => {
    const total = totalWithNoteOf(g);
    return total ? [htmlParagraph(escapeHtml(`Total disclosed short ${total}`), true)] : [];
  };

  const text = [
    title,
    periodLine,
    ...(movers.length > 0 ? ['', 'Top movers', ...movers.map((line) => `* ${line}`)] : []),
    ...groups.flatMap((g) => [
      '',
      [sectionName(g), totalOf(g)].filter(Boolean).join(': '),
      ...g.lines.flatMap(storyTextLines),
    ]),
    ...textEnding(hasClosed, footer),
  ].join('\n');

  const body = [
    htmlParagraph(escapeHtml(periodLine), true),
    ...(movers.length > 0 ? [htmlHeading('Top movers'), htmlList(movers.map(escapeHtml))] : []),
    ...groups.flatMap((g) => [
      htmlHeading(escapeHtml(sectionName(g))),
      ...totalHtml(g),
      htmlTable(EVENT_COLUMNS, g.lines.map(storyRow)),
    ]),
    ...(hasClosed ? [htmlParagraph(escapeHtml(CLOSED_NOTE), true)] : []),
  ].join('\n');

  return { subject, text, html: htmlLayout({ title, body, footer }) };
}
