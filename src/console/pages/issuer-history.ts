import type { App } from '../../app.js';
import { isAccessRevokedError, isBudgetExhaustedError } from '../../budget/index.js';
import type { IssuerPosition } from '../../upstream/schemas.js';
import { displayText, formatCount, formatTime } from '../format.js';
import { html } from '../html.js';
import { type PageContext, type PageResult, page } from '../page.js';
import { paths } from '../paths.js';
import {
  type IssuerData,
  loadIssuer,
  NO_UPSTREAM_HISTORY,
  notFound,
  renderIssuer,
  spendableToday,
} from './issuer.js';

/** The form value that says the user saw the cost and confirmed it. */
const CONFIRMED = 'spend';

/**
 * The full history (`status=all`): one request, through the polling client. Not the interactive one: the
 * reserve is kept for an operator at the CLI (`check`, `status`, `resume`) when polling has spent the
 * day, and a console click (from any browser that reaches it) must not take it. A refusal is told on the
 * page rather than failing it.
 */
export async function fetchHistory(app: App, id: string): Promise<readonly IssuerPosition[] | string> {
  try {
    return (await app.client('polling').getPositions(id, 'all')).data;
  } catch (error) {
    if (isBudgetExhaustedError(error))
      return `The budget has no request to spare now (${error.reason}; the reserve stays for CLI commands); next at ${formatTime(error.retryAt)}.`;
    if (isAccessRevokedError(error)) return 'Upstream access is revoked: no request is sent.';
    return `The upstream did not answer usefully: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The step before spending: what it costs, what is left, and a button that confirms (a POST with CSRF). */
export function renderHistoryConfirm(data: IssuerData, csrf: string): PageResult {
  const title = `Load the full history of ${displayText(data.name)}?`;
  if (data.dayLeft === null) return page({ title, section: '/issuers' }, NO_UPSTREAM_HISTORY);
  const body = html`<p>Loading the full history of <strong>${displayText(data.name)}</strong> asks the upstream for every disclosure it has (<code>status=all</code>).</p>
<p class="notice">This spends <strong>1 upstream request</strong> of the budget polling uses: ${formatCount(data.dayLeft)} left today beyond the reserve, which stays for CLI commands.</p>
<form method="post" action="${paths.issuerHistory(data.id)}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="confirm" value="${CONFIRMED}">
<button${data.dayLeft <= 0 ? html` disabled` : ''}>Spend 1 request: load the full history</button> <a href="${paths.issuer(data.id)}">Cancel</a></form>`;
  return page({ title, section: '/issuers' }, body);
}

/** POST /issuers/:id/history: first a confirmation; confirmed, the issuer page with the history drawn in. */
export async function issuerHistoryPage(ctx: PageContext, id: string): Promise<PageResult> {
  const data = await loadIssuer(ctx.app, id);
  if (!data) return notFound(id);
  if (ctx.form.get('confirm') !== CONFIRMED || data.dayLeft === null)
    return renderHistoryConfirm(data, ctx.csrf);
  const history = await fetchHistory(ctx.app, id);
  const dayLeft = spendableToday(await ctx.app.ctx.budget.usage());
  return page(
    { title: displayText(data.name), section: '/issuers' },
    renderIssuer({ ...data, history, dayLeft }, ctx.csrf),
  );
}
