/**
 * HTML built by a tagged template that escapes every interpolated value: a holder called `<script>`
 * stays text. Only {@link SafeHtml} (the result of `html` itself, or {@link trusted}) passes unescaped.
 */

/** A piece of markup that is already safe to insert. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

/** What may be interpolated: text and numbers are escaped; arrays are joined; null, undefined and false vanish. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === undefined || value === false || value === true) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'string') return escapeHtml(value);
  let out = '';
  for (const item of value) out += render(item);
  return out;
}

/** The tagged template: `html\`<td>${name}</td>\``. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Markup written by this program (CSS, an SVG path built from numbers): never outside text. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
