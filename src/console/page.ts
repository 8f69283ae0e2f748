import type { App } from '../app.js';
import type { SafeHtml } from './html.js';
import type { PageFrame } from './layout.js';

/** What a page handler is given for one request. */
export interface PageContext {
  app: App;
  /** The CSRF token every form of this page posts. */
  csrf: string;
  query: URLSearchParams;
  /** The decoded form fields of a POST (empty for a GET). */
  form: URLSearchParams;
}

/** A page to send: its frame (title, section) and body, or a redirect after an action. */
export type PageResult =
  | { kind: 'page'; status?: number; frame: PageFrame; body: SafeHtml }
  | { kind: 'redirect'; location: string };

/** A file to download, written as its chunks come (an export of any size in bounded memory). */
export interface Download {
  kind: 'download';
  type: string;
  filename: string;
  chunks: AsyncIterable<string>;
}

/** What a route answers: a page, a redirect or a download. */
export type RouteResult = PageResult | Download;

/** A page. */
export function page(frame: PageFrame, body: SafeHtml, status?: number): PageResult {
  return { kind: 'page', frame, body, ...(status === undefined ? {} : { status }) };
}

/** A 303 after an action, so that reloading the result does not post the form again. */
export function redirect(location: string): PageResult {
  return { kind: 'redirect', location };
}
