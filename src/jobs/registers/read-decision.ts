import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import type { JobContext } from '../context.js';
import { MARKET_BOUNDARIES } from '../observe/boundary.js';
import { describeDisappearance } from '../observe/disappearance.js';
import type { HoldVerdict } from './read-hold.js';
import type { RegimeDecision } from './register-diff.js';

/**
 * One ops notice for what a read decided about holders that left it, with the counts and why: a regime
 * change (the calendar, or most named issuers emptied and a confirming read agreed), or a mass removal
 * confirmed and told as closes. A read that restored what the held one removed is logged only.
 */
export async function tellDecision(
  ctx: JobContext,
  source: RegisterSourceConfig,
  { verdict, regime }: { verdict: HoldVerdict; regime: RegimeDecision | undefined },
): Promise<void> {
  const removed = describeDisappearance(verdict.removed);
  const key = `source-decided-${source.name}-${verdict.removed.fingerprint}`;
  if (regime !== undefined) {
    await ctx.notices.tell(key, 'info', `Named holders ended in ${source.name}`, regimeText(source, regime));
    return;
  }
  if (verdict.confirmed) {
    const text = `A read of ${source.name} removed much of the register (${removed}); a confirming read ${sinceText(verdict)} agreed, so its closes and ended aggregates were told. ${sharesText(source)}`;
    await ctx.notices.tell(key, 'info', `Register ${source.name}: mass removal confirmed`, text);
  } else if (verdict.held !== null) {
    ctx.logger.info(
      { source: source.name, held: verdict.held.text },
      'held-back read not confirmed: only real changes told',
    );
  }
}

function regimeText(source: RegisterSourceConfig, regime: RegimeDecision): string {
  const counts = `${regime.emptied} of ${regime.named} issuers that named holders name none now`;
  if (regime.by === 'share')
    return `${counts} in ${source.name}, more than ${pct(source.regimeBoundary.share)} of them, and a confirming read agreed: told once per issuer as "named holders no longer published", not as closes.`;
  const calendar = MARKET_BOUNDARIES.map(
    (b) =>
      `${b.market} named holders end with the positions published up to ${b.namedUntil}; ${b.what} from ${b.replacedFrom}`,
  ).join('; ');
  const own = source.regimeBoundary.namedHoldersUntil;
  return `${counts} in ${source.name}; past the boundary (${calendar}${own ? `; this source's namedHoldersUntil ${own}` : ''}): holders dropped are told once per issuer as "named holders no longer published", not as closes.`;
}

function sinceText(verdict: HoldVerdict): string {
  return verdict.held === null ? '' : `(held back since ${verdict.held.since})`;
}

function sharesText(source: RegisterSourceConfig): string {
  return `Reads removing more than ${pct(source.confirm.share)} of the issuers or named holders wait for a confirming read; a regime change needs more than ${pct(source.regimeBoundary.share)} of the named issuers emptied.`;
}

function pct(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}
