import { html } from './html.js';
import { type PageContext, type PageResult, page, type RouteResult } from './page.js';
import { deliveriesPage, retryAction } from './pages/deliveries.js';
import { eventsPage } from './pages/events.js';
import { holderPage, holdersPage } from './pages/holders.js';
import { issuerPage } from './pages/issuer.js';
import { issuerHistoryPage } from './pages/issuer-history.js';
import { issuersPage } from './pages/issuers.js';
import { createMuteAction, mutesPage, removeMuteAction } from './pages/mutes.js';
import { overviewPage } from './pages/overview.js';
import { exportDownload } from './pages/record-export.js';
import { sourceIssuerPage } from './pages/source-issuer.js';
import { sourcePage, sourcesPage } from './pages/sources.js';
import { subscriberPage, subscribersPage } from './pages/subscribers.js';

/** One route: a method, a path pattern (its groups are URL-decoded and passed on), and its handler. */
interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  run(ctx: PageContext, ...params: string[]): Promise<RouteResult>;
}

const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: /^\/$/, run: overviewPage },
  { method: 'GET', pattern: /^\/issuers$/, run: issuersPage },
  { method: 'GET', pattern: /^\/issuers\/([^/]+)$/, run: (ctx, id = '') => issuerPage(ctx, id) },
  {
    method: 'POST',
    pattern: /^\/issuers\/([^/]+)\/history$/,
    run: (ctx, id = '') => issuerHistoryPage(ctx, id),
  },
  { method: 'GET', pattern: /^\/holders$/, run: holdersPage },
  { method: 'GET', pattern: /^\/holders\/([^/]+)$/, run: (ctx, key = '') => holderPage(ctx, key) },
  { method: 'GET', pattern: /^\/events$/, run: eventsPage },
  { method: 'GET', pattern: /^\/sources$/, run: sourcesPage },
  { method: 'GET', pattern: /^\/sources\/([^/]+)$/, run: (ctx, name = '') => sourcePage(ctx, name) },
  {
    method: 'GET',
    pattern: /^\/sources\/([^/]+)\/([^/]+)$/,
    run: (ctx, name = '', key = '') => sourceIssuerPage(ctx, name, key),
  },
  { method: 'GET', pattern: /^\/deliveries$/, run: deliveriesPage },
  { method: 'POST', pattern: /^\/deliveries\/retry$/, run: retryAction },
  { method: 'GET', pattern: /^\/deliveries\/export$/, run: exportDownload },
  { method: 'GET', pattern: /^\/subscribers$/, run: subscribersPage },
  { method: 'GET', pattern: /^\/subscribers\/([^/]+)$/, run: (ctx, id = '') => subscriberPage(ctx, id) },
  { method: 'GET', pattern: /^\/mutes$/, run: mutesPage },
  { method: 'POST', pattern: /^\/mutes$/, run: createMuteAction },
  { method: 'POST', pattern: /^\/mutes\/remove$/, run: removeMuteAction },
];

/** The console's own top-level paths: anything else is left to the probes' server (and its 404). */
const OWNED =
  /^\/(?:$|issuers(?:\/|$)|holders(?:\/|$)|events$|sources(?:\/|$)|deliveries(?:\/|$)|subscribers(?:\/|$)|mutes(?:\/|$)|login$|logout$|assets\/)/;

/** Whether the console answers this path at all. */
export function ownsPath(path: string): boolean {
  return OWNED.test(path);
}

/** The route for a method and path, with its decoded parameters; `method-not-allowed` when only the method is wrong. */
export function findRoute(
  method: string,
  path: string,
): { run: (ctx: PageContext) => Promise<RouteResult> } | 'method-not-allowed' | null {
  let pathMatched = false;
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    let params: string[];
    try {
      params = match.slice(1).map((p) => decodeURIComponent(p));
    } catch {
      return null;
    }
    return { run: (ctx) => route.run(ctx, ...params) };
  }
  return pathMatched ? 'method-not-allowed' : null;
}

/** The page for a path the console owns but no route has. */
export function notFoundPage(): PageResult {
  return page(
    { title: 'Not found', section: null },
    html`<p>No such page. <a href="/">Overview</a></p>`,
    404,
  );
}
