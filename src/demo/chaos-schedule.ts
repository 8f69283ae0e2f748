import {
  type FaultSpec,
  type LimitWindow,
  QUIRKS,
  type Quirk,
  type RateLimitFaultOptions,
} from '../sandbox/index.js';

/** What `demo --chaos` makes the sandbox do: every quirk, then the two misbehaviours that are statuses. */
export const CHAOS_MODES = [...QUIRKS, 'transient-404', 'rate-limit-without-retry-after'] as const;

/** One misbehaviour of the upstream that `--chaos` shows. */
export type ChaosMode = (typeof CHAOS_MODES)[number];

/** An issuer of the demo's list, with how many holders it lists now. */
export interface ChaosIssuer {
  id: string;
  name: string;
  holders: number;
}

/** How a phase reaches the sandbox: its fault API, as is. */
export type ChaosFault =
  | { kind: 'inject'; spec: FaultSpec }
  | { kind: 'rateLimit'; window: LimitWindow; options: RateLimitFaultOptions };

/** One phase of the chaos cycle. */
export interface ChaosPhase {
  mode: ChaosMode;
  /** The issuer it targets; undefined: every issuer (or, for a 429, any request). */
  issuer?: { id: string; name: string };
  /** True: the next matching answer only; false: every matching answer while the phase lasts. */
  once: boolean;
  fault: ChaosFault;
  /** What the upstream does, in words, for the console. */
  says: string;
}

/** Who a mode's phase is aimed at: every issuer, one issuer for the phase, or one answer. */
type Scope = 'every issuer' | 'one issuer' | 'one answer';

interface ModeText {
  scope: Scope;
  says: (next: ChaosIssuer | undefined) => string;
}

const MODES: Record<ChaosMode, ModeText> = {
  'null-last-updated': {
    scope: 'every issuer',
    says: () => 'positions answers say last_updated: null, while the issuer list gives a time',
  },
  'lagging-last-updated': {
    scope: 'every issuer',
    says: () => "positions answers' last_updated lags the issuer list's by an hour",
  },
  'backwards-last-updated': {
    scope: 'one answer',
    says: () => 'a stale cache node: last_updated a day old, the holders from before the latest change',
  },
  'wrong-issuer': {
    scope: 'one answer',
    says: (next) => `the answer is another issuer's${next ? `: ${next.name} (${next.id})` : ''}`,
  },
  'status-all': {
    scope: 'one issuer',
    says: () => 'answers echo status: all and carry the full history, old and closed rows too',
  },
  paginated: {
    scope: 'one issuer',
    says: () => 'answers hold only the first half of the rows, with next, total and has_more',
  },
  vanish: { scope: 'one answer', says: () => 'every holder is gone from one answer' },
  'strings-for-numbers': {
    scope: 'one issuer',
    says: () => 'answers give every value as a string (schema drift)',
  },
  'transient-404': {
    scope: 'one answer',
    says: () => "404 'Issuer not found' once, while the issuer list still names it",
  },
  'rate-limit-without-retry-after': {
    scope: 'one answer',
    says: () => 'the next request, whichever it is, gets a 429 (minute window) without Retry-After',
  },
};

function faultOf(mode: ChaosMode, issuerId: string | undefined, once: boolean): ChaosFault {
  if (mode === 'rate-limit-without-retry-after') {
    // The minute window: a day-window 429 without Retry-After could stall the demo until midnight.
    return { kind: 'rateLimit', window: 'minute', options: { retryAfterSeconds: null, times: 1 } };
  }
  const target = issuerId === undefined ? {} : { issuerId };
  if (mode === 'transient-404') return { kind: 'inject', spec: { ...target, status: 404, times: 1 } };
  const quirk: Quirk = mode;
  return { kind: 'inject', spec: { ...target, quirk, times: once ? 1 : Number.POSITIVE_INFINITY } };
}

/**
 * The chaos cycle over the demo's issuers (in the sandbox's list order): one phase per mode, in
 * {@link CHAOS_MODES} order. Phases for one issuer take turns over the issuers that list holders,
 * where a quirk has something to show.
 */
export function buildChaosSchedule(issuers: readonly ChaosIssuer[]): ChaosPhase[] {
  const withHolders = issuers.filter((issuer) => issuer.holders > 0);
  const targets = withHolders.length > 0 ? withHolders : issuers;
  let turn = 0;
  return CHAOS_MODES.map((mode) => {
    const { scope, says } = MODES[mode];
    const aimed = scope !== 'every issuer' && mode !== 'rate-limit-without-retry-after';
    const target = aimed ? targets[turn++ % targets.length] : undefined;
    const at = target ? issuers.findIndex((issuer) => issuer.id === target.id) : -1;
    const next = target ? issuers[(at + 1) % issuers.length] : undefined;
    const once = scope === 'one answer';
    return {
      mode,
      ...(target ? { issuer: { id: target.id, name: target.name } } : {}),
      once,
      fault: faultOf(mode, target?.id, once),
      says: says(next),
    };
  });
}
