import { isAccessRevokedError, isBudgetExhaustedError } from "../../budget/index.js";
import { displayText, formatCount, formatTime } from "../format.js";
import { html } from "../html.js";
import { page } from "../page.js";
import { paths } from "../paths.js";
import {
  loadIssuer,
  NO_UPSTREAM_HISTORY,
  notFound,
  renderIssuer,
  spendableToday
} from "./issuer.js";
const CONFIRMED = "spend";
async function fetchHistory(app, id) {
  try {
    return (await app.client("polling").getPositions(id, "all")).data;
  } catch (error) {
    if (isBudgetExhaustedError(error))
      return `The budget has no request to spare now (${error.reason}; the reserve stays for CLI commands); next at ${formatTime(error.retryAt)}.`;
    if (isAccessRevokedError(error)) return "Upstream access is revoked: no request is sent.";
    return `The upstream did not answer usefully: ${error instanceof Error ? error.message : String(error)}`;
  }
}
function renderHistoryConfirm(data, csrf) {
  const title = `Load the full history of ${displayText(data.name)}?`;
  if (data.dayLeft === null) return page({ title, section: "/issuers" }, NO_UPSTREAM_HISTORY);
  const body = html`<p>Loading the full history of <strong>${displayText(data.name)}</strong> asks the upstream for every disclosure it has (<code>status=all</code>).</p>
<p class="notice">This spends <strong>1 upstream request</strong> of the budget polling uses: ${formatCount(data.dayLeft)} left today beyond the reserve, which stays for CLI commands.</p>
<form method="post" action="${paths.issuerHistory(data.id)}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="confirm" value="${CONFIRMED}">
<button${data.dayLeft <= 0 ? html` disabled` : ""}>Spend 1 request: load the full history</button> <a href="${paths.issuer(data.id)}">Cancel</a></form>`;
  return page({ title, section: "/issuers" }, body);
}
async function issuerHistoryPage(ctx, id) {
  const data = await loadIssuer(ctx.app, id);
  if (!data) return notFound(id);
  if (ctx.form.get("confirm") !== CONFIRMED || data.dayLeft === null)
    return renderHistoryConfirm(data, ctx.csrf);
  const history = await fetchHistory(ctx.app, id);
  const dayLeft = spendableToday(await ctx.app.ctx.budget.usage());
  return page(
    { title: displayText(data.name), section: "/issuers" },
    renderIssuer({ ...data, history, dayLeft }, ctx.csrf)
  );
}
export {
  fetchHistory,
  issuerHistoryPage,
  renderHistoryConfirm
};
