import type { Cell } from './types.js';

/** One innermost `<table>` of a page: its body and head rows as text cells, and its footer's text. */
export interface HtmlTable {
  rows: Cell[][];
  footer: string;
}

/** What an HTML page says in words, tags dropped: the message of an error page. */
export function pageText(html: string): string {
  return cellTextOf(html.replace(/<(script|style|noscript)\b[\s\S]*?<\/\1>/gi, ' '));
}

/**
 * The innermost tables of a page (those with no table inside: the data tables of a layout built of
 * tables), each as rows of text cells in document order, `<tfoot>` kept apart as the footer's text.
 * A regular-expression reader is enough for the register pages it serves (KNF's JSF table): rows,
 * cells, tags and entities, no scripts; no dependency is added for one page.
 */
export function innermostTables(html: string): HtmlTable[] {
  const tables: HtmlTable[] = [];
  for (const start of html.matchAll(/<table\b[^>]*>/gi)) {
    const from = (start.index ?? 0) + start[0].length;
    const end = html.slice(from).search(/<\/table>/i);
    const inner = end < 0 ? html.slice(from) : html.slice(from, from + end);
    // A table with another table opening before its first close is a layout table around it.
    if (/<table\b/i.test(inner)) continue;
    const footer = /<tfoot\b[^>]*>([\s\S]*?)<\/tfoot>/i.exec(inner);
    const body = footer === null ? inner : inner.replace(footer[0], '');
    tables.push({ rows: rowsOf(body), footer: cellTextOf(footer?.[1] ?? '') });
  }
  return tables;
}

function rowsOf(html: string): Cell[][] {
  return [...html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)].map((row) =>
    [...(row[1] ?? '').matchAll(/<t([dh])\b[^>]*>([\s\S]*?)<\/t\1>/gi)].map((cell) =>
      cellTextOf(cell[2] ?? ''),
    ),
  );
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** A fragment's text: tags dropped, entities decoded, white space (`&nbsp;` too) collapsed. */
function cellTextOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name.startsWith('#')) {
        const code =
          name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return NAMED[name.toLowerCase()] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
