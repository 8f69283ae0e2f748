import { html } from "./html.js";
import { page } from "./page.js";
import { deliveriesPage, retryAction } from "./pages/deliveries.js";
import { eventsPage } from "./pages/events.js";
import { holderPage, holdersPage } from "./pages/holders.js";
import { issuerPage } from "./pages/issuer.js";
import { issuerHistoryPage } from "./pages/issuer-history.js";
import { issuersPage } from "./pages/issuers.js";
import { createMuteAction, mutesPage, removeMuteAction } from "./pages/mutes.js";
import { overviewPage } from "./pages/overview.js";
import { exportDownload } from "./pages/record-export.js";
import { sourceIssuerPage } from "./pages/source-issuer.js";
import { sourcePage, sourcesPage } from "./pages/sources.js";
const ROUTES = [
  { method: "GET", pattern: /^\/$/, run: overviewPage },
  { method: "GET", pattern: /^\/issuers$/, run: issuersPage },
  { method: "GET", pattern: /^\/issuers\/([^/]+)$/, run: (ctx, id = "") => issuerPage(ctx, id) },
  {
    method: "POST",
    pattern: /^\/issuers\/([^/]+)\/history$/,
    run: (ctx, id = "") => issuerHistoryPage(ctx, id)
  },
  { method: "GET", pattern: /^\/holders$/, run: holdersPage },
  { method: "GET", pattern: /^\/holders\/([^/]+)$/, run: (ctx, key = "") => holderPage(ctx, key) },
  { method: "GET", pattern: /^\/events$/, run: eventsPage },
  { method: "GET", pattern: /^\/sources$/, run: sourcesPage },
  { method: "GET", pattern: /^\/sources\/([^/]+)$/, run: (ctx, name = "") => sourcePage(ctx, name) },
  {
    method: "GET",
    pattern: /^\/sources\/([^/]+)\/([^/]+)$/,
    run: (ctx, name = "", key = "") => sourceIssuerPage(ctx, name, key)
  },
  { method: "GET", pattern: /^\/deliveries$/, run: deliveriesPage },
  { method: "POST", pattern: /^\/deliveries\/retry$/, run: retryAction },
  { method: "GET", pattern: /^\/deliveries\/export$/, run: exportDownload },
  { method: "GET", pattern: /^\/mutes$/, run: mutesPage },
  { method: "POST", pattern: /^\/mutes$/, run: createMuteAction },
  { method: "POST", pattern: /^\/mutes\/remove$/, run: removeMuteAction }
];
const OWNED = /^\/(?:$|issuers(?:\/|$)|holders(?:\/|$)|events$|sources(?:\/|$)|deliveries(?:\/|$)|mutes(?:\/|$)|login$|logout$|assets\/)/;
function ownsPath(path) {
  return OWNED.test(path);
}
function findRoute(method, path) {
  let pathMatched = false;
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    let params;
    try {
      params = match.slice(1).map((p) => decodeURIComponent(p));
    } catch {
      return null;
    }
    return { run: (ctx) => route.run(ctx, ...params) };
  }
  return pathMatched ? "method-not-allowed" : null;
}
function notFoundPage() {
  return page(
    { title: "Not found", section: null },
    html`<p>No such page. <a href="/">Overview</a></p>`,
    404
  );
}
export {
  findRoute,
  notFoundPage,
  ownsPath
};
