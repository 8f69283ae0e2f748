import { type StoryLine, sourceNote, storyLines, totalWithNote } from '../event-story.js';
import { formatInstant } from '../time.js';
import type { BatchMessage, IssuerEvents } from '../types.js';
import {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  needsBelowNote,
  oneLineEvent,
  storyRow,
  storyTextLines,
  textEnding,
} from './event-facts.js';
import { escapeHtml, htmlHeading, htmlLayout, htmlParagraph, htmlTable } from './html.js';
import type { RenderedEmail, RenderOptions } from './rendered.js';
import { linesSummary } from './subject.js';
import { oneLine, toSubject } from './text.js';

/** One issuer's part of a batch, upstream strings on one line. */
interface IssuerSection {
  /** `Acme plc (ISS-1)`. */
  title: string;
  /** `3.40% → 3.52% (+0.12 pp)`, the issuer's total over its events. */
  total: string | undefined;
  /** One per holder. */
  lines: StoryLine[];
  changes: number;
}

/** `1 issuer`, `3 issuers`. */
function issuerCount(count: number): string {
  return `${count} ${count === 1 ? 'issuer' : 'issuers'}`;
}

/** `1 short position change in 1 issuer`, `5 short position changes in 3 issuers`. */
function batchHeadline(changes: number, issuers: number): string {
  return `${changes} short position ${changes === 1 ? 'change' : 'changes'} in ${issuerCount(issuers)}`;
}

function issuerSection(group: IssuerEvents): IssuerSection {
  const events = group.events.map(oneLineEvent);
  const lines = storyLines(events);
  const source = sourceNote(events);
  return {
    title: `${oneLine(group.issuer.name)} (${oneLine(group.issuer.id)})${source ? `, ${oneLine(source)}` : ''}`,
    total: totalWithNote(events, lines),
    lines,
    changes: events.length,
  };
}

function sectionText(section: IssuerSection): string[] {
  const title = section.total ? `${section.title}: total disclosed short ${section.total}` : section.title;
  return ['', title, ...section.lines.flatMap(storyTextLines)];
}

function sectionHtml(section: IssuerSection): string[] {
  const total = section.total
    ? [htmlParagraph(escapeHtml(`Total disclosed short ${section.total}`), true)]
    : [];
  return [
    htmlHeading(escapeHtml(section.title)),
    ...total,
    htmlTable(EVENT_COLUMNS, section.lines.map(storyRow)),
  ];
}

/** Several issuers' events in one e-mail: a section per issuer, its events in the given order. */
export function renderBatch(message: BatchMessage, options: RenderOptions): RenderedEmail {
  const sections = message.groups.filter((group) => group.events.length > 0).map(issuerSection);
  const lines = sections.flatMap((section) => section.lines);
  const changes = sections.reduce((sum, section) => sum + section.changes, 0);
  const headline = batchHeadline(changes, sections.length);
  const hasClosed = needsBelowNote(lines);
  const newest = lines
    .flatMap((line) => line.events.map((e) => e.detectedAt))
    .sort()
    .at(-1);
  const detected = newest ? ` · detected ${formatInstant(newest, options.timezone, { year: true })}` : '';
  const footer = `shortwatch · ${issuerCount(sections.length)}${detected} (${options.timezone})`;

  const text = [headline, ...sections.flatMap(sectionText), ...textEnding(hasClosed, footer)].join('\n');

  const body = [
    ...sections.flatMap(sectionHtml),
    ...(hasClosed ? [htmlParagraph(escapeHtml(CLOSED_NOTE), true)] : []),
  ].join('\n');

  const subject = toSubject(`${headline}: ${linesSummary(lines)}`);
  return { subject, text, html: htmlLayout({ title: headline, body, footer }) };
}
