import { type BatchDocument, type IssuerSection, totalWithNoteOf } from '../story-document.js';
import { formatInstant } from '../time.js';
import {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  needsBelowNote,
  storyRow,
  storyTextLines,
  textEnding,
} from './event-facts.js';
import { escapeHtml, htmlHeading, htmlLayout, htmlParagraph, htmlTable } from './html.js';
import type { RenderedEmail, RenderOptions } from './rendered.js';
import { linesSummary } from './subject.js';
import { oneLine, toSubject } from './text.js';

/** `1 issuer`, `3 issuers`. */
function issuerCount(count: number): string {
  return `${count} ${count === 1 ? 'issuer' : 'issuers'}`;
}

/** `1 short position change in 1 issuer`, `5 short position changes in 3 issuers`. */
function batchHeadline(changes: number, issuers: number): string {
  return `${changes} short position ${changes === 1 ? 'change' : 'changes'} in ${issuerCount(issuers)}`;
}

/** `Acme plc (ISS-1)`, and the register when it has one. */
function sectionTitle(section: IssuerSection): string {
  const { issuer, source } = section;
  return `${oneLine(issuer.name)} (${oneLine(issuer.id)})${source ? `, ${oneLine(source)}` : ''}`;
}

function sectionText(section: IssuerSection): string[] {
  const total = totalWithNoteOf(section);
  const title = total ? `${sectionTitle(section)}: total disclosed short ${total}` : sectionTitle(section);
  return ['', title, ...section.lines.flatMap(storyTextLines)];
}

function sectionHtml(section: IssuerSection): string[] {
  const withNote = totalWithNoteOf(section);
  const total = withNote ? [htmlParagraph(escapeHtml(`Total disclosed short ${withNote}`), true)] : [];
  return [
    htmlHeading(escapeHtml(sectionTitle(section))),
    ...total,
    htmlTable(EVENT_COLUMNS, section.lines.map(storyRow)),
  ];
}

/** Several issuers' events in one e-mail: a section per issuer, its events in the given order. */
export function batchEmail(document: BatchDocument, options: RenderOptions): RenderedEmail {
  const { sections } = document;
  const lines = sections.flatMap((section) => section.lines);
  const headline = batchHeadline(document.changes, sections.length);
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
