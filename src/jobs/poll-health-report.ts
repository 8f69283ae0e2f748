import type { Plan } from '../budget/index.js';
import { displayText } from '../channels/format.js';
import { formatDuration } from '../config/duration.js';
import type { Config } from '../config/schema.js';
import type { ActiveNotice } from '../state/notices.js';
import type { IssuerHealth, PollFailureCause } from '../state/poll-health.js';
import type { JobContext } from './context.js';
import { CAUSE_TEXT } from './poll-failure.js';
import { sweepEvery } from './schedulers.js';
import type { WatchedIssuer } from './watchlist.js';

/** A watched issuer due for longer than `poll.overdueAfter` without a successful poll. */
export interface OverdueIssuer {
  id: string;
  name: string;
  dueSince: string;
  /** The latest failure, when polls were tried and failed (none: not tried, e.g. no budget). */
  cause?: PollFailureCause;
  failures: number;
  /** When the issuer is asked next, when it waits out a backoff (failing or lagging). */
  nextTry?: number;
  /** Its answers carry an older dataset than the issuer list (a replica behind). */
  lagging?: { answered: string; expected: string; count: number };
}

/** More overdue issuers than this are told in one notice rather than one each. */
const NOTICES_PER_ISSUER_UP_TO = 5;
const MANY_KEY = 'polling-overdue';
const ONE_PREFIX = 'poll-overdue-';

/** `poll.overdueAfter`, or two gate intervals (two sweep intervals without the gate) past the planned poll. */
export function overdueAfterMs(config: Config, plan: Plan): number {
  return config.poll.overdueAfter ?? 2 * sweepEvery(plan);
}

/**
 * The watched issuers that are overdue, oldest first. An issuer waiting out a 404 backoff is not overdue:
 * its own notice tells that story.
 */
export function overdueIssuers(
  watched: readonly WatchedIssuer[],
  health: ReadonlyMap<string, IssuerHealth>,
  nowMs: number,
  afterMs: number,
): OverdueIssuer[] {
  return watched
    .flatMap((issuer) => {
      const h = health.get(issuer.id);
      if (!h?.dueSince || h.notFound || nowMs - Date.parse(h.dueSince) <= afterMs) return [];
      return [
        {
          id: issuer.id,
          name: issuer.name,
          dueSince: h.dueSince,
          failures: h.failing?.count ?? 0,
          ...(h.failing ? { cause: h.failing.cause } : {}),
          ...(h.lagging
            ? {
                lagging: {
                  answered: h.lagging.answered,
                  expected: h.lagging.expected,
                  count: h.lagging.count,
                },
              }
            : {}),
          ...nextTryOf(h),
        },
      ];
    })
    .sort((a, b) => a.dueSince.localeCompare(b.dueSince));
}

/** When a failing or lagging issuer is asked next. */
function nextTryOf(health: IssuerHealth): { nextTry?: number } {
  const at = health.failing?.retryAt ?? health.lagging?.retryAt;
  return at === undefined ? {} : { nextTry: at };
}

/** One line per overdue issuer, for notices and `status`. */
export function describeOverdue(issuer: OverdueIssuer, nowMs: number): string {
  const waited = formatDuration(nowMs - Date.parse(issuer.dueSince));
  const next = issuer.nextTry === undefined ? '' : `; next try ${new Date(issuer.nextTry).toISOString()}`;
  return `${displayText(issuer.name)} (${displayText(issuer.id)}) due for ${waited}; ${whyOverdue(issuer)}${next}`;
}

function whyOverdue(issuer: OverdueIssuer): string {
  if (issuer.cause)
    return `${issuer.failures} failed poll${issuer.failures === 1 ? '' : 's'}: ${CAUSE_TEXT[issuer.cause]}`;
  if (issuer.lagging) {
    const { answered, expected, count } = issuer.lagging;
    return `${count} answer${count === 1 ? '' : 's'} older than the issuer list (data of ${answered}, the list says ${expected}: a replica behind?)`;
  }
  return 'no poll has run (budget, a 429 block, or no worker running)';
}

/**
 * Brings the polling notices in line with what is overdue now: one notice per overdue issuer, or one
 * for all when more than a handful are (an upstream outage must not flood the ops channel), and a
 * `resolved` for each that recovered.
 */
export async function syncOverdueNotices(
  ctx: JobContext,
  overdue: readonly OverdueIssuer[],
  active: readonly ActiveNotice[],
): Promise<void> {
  const nowMs = ctx.now().getTime();
  const many = overdue.length > NOTICES_PER_ISSUER_UP_TO;
  const wanted = new Set(many ? [] : overdue.map((o) => ONE_PREFIX + o.id));
  for (const notice of active) {
    if (notice.key.startsWith(ONE_PREFIX) && !wanted.has(notice.key)) {
      const id = notice.key.slice(ONE_PREFIX.length);
      await ctx.notices.clear(
        notice.key,
        many ? `${id} is now part of the wider polling problem.` : `${id} is polled again.`,
      );
    }
  }
  if (many) {
    await ctx.notices.raise(
      MANY_KEY,
      'critical',
      `Polling is behind for ${overdue.length} issuers`,
      `${overdue.map((o) => describeOverdue(o, nowMs)).join('\n')}\n\`shortwatch status\` shows the current state.`,
    );
    return;
  }
  await ctx.notices.clear(MANY_KEY, 'Polling has caught up.');
  for (const issuer of overdue) {
    await ctx.notices.raise(
      ONE_PREFIX + issuer.id,
      'warning',
      'A watched issuer is not being polled',
      `${describeOverdue(issuer, nowMs)}. Its changes are told once a poll succeeds.`,
    );
  }
}
