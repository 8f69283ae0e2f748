// How many polls one sweep may queue. The sweep never queues more than today's budget can pay, so no
// poll is left waiting for midnight (where it would spend the next day's tokens ahead of that day's
// own refresh), and it weighs each token spent now against the same token kept for a refresh still
// expected today.

/** What the sweep knows of today's budget and the day ahead. */
export interface AllowanceInput {
  /** Tokens of today's window left to polling (the day's cap less the reserve, less what was used). */
  tokensLeft: number;
  /** Gate checks still planned today: they need their tokens too. */
  checksLeft: number;
  /** Polls queued and not run yet: they will take tokens before anything queued now. */
  queued: number;
  /** Dataset refreshes still expected today, from the learned publication times. */
  refreshesLater: number;
}

/** Tokens the sweep may spend now on polls: what today has left after the checks and the queue. */
export function freeTokens(input: AllowanceInput): number {
  return Math.max(0, Math.floor(input.tokensLeft - input.checksLeft - input.queued));
}

/**
 * How many of `tokens` to spend now. Each token goes where it finds the most changes: on the next
 * candidate now (`nowChances`, its chance of a change, highest first), or kept for a refresh still
 * expected today, where it would poll the issuer with the next-highest chance of changing in one
 * refresh (`refreshChances`, highest first), discounted by how likely that refresh is. A poll kept back
 * is not lost: it is queued at a later tick once the refresh came, or once it became unlikely.
 */
export function spendNow(
  nowChances: readonly number[],
  refreshChances: readonly number[],
  refreshesLater: number,
  tokens: number,
): number {
  const later = laterValues(refreshChances, refreshesLater);
  let now = 0;
  let kept = 0;
  for (let t = 0; t < tokens && now < nowChances.length; t++) {
    if ((nowChances[now] ?? 0) >= (later[kept] ?? 0)) now++;
    else kept++;
  }
  return now;
}

/** A kept token's worth for each refresh still expected (a fraction for the last), best first. */
function laterValues(refreshChances: readonly number[], refreshesLater: number): number[] {
  if (refreshesLater <= 0) return [];
  const values: number[] = [];
  for (let r = 0; r < Math.ceil(refreshesLater); r++) {
    const likely = Math.min(1, refreshesLater - r);
    for (const chance of refreshChances) values.push(chance * likely);
  }
  return values.sort((a, b) => b - a);
}
