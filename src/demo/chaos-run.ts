import type { Faults, RequestRecord, RequestStats } from '../sandbox/index.js';
import { alertLine } from './alert-lines.js';
import type { ChaosPhase } from './chaos-schedule.js';

/** The parts of the sandbox chaos drives: its faults, and its request log to tell what a phase cost. */
export interface ChaosSandbox {
  faults: Faults;
  stats: RequestStats;
}

/** The demo's pace: a few data steps (every 5 s) and gate checks (every 2 s) per phase. */
export const DEMO_CHAOS_TIMING: ChaosTiming = { startAfterMs: 10_000, phaseMs: 12_000 };

/** When phases change. */
export interface ChaosTiming {
  /** The first phase starts this long after `start` (the baseline polls run undisturbed first). */
  startAfterMs: number;
  /** How long each phase lasts. */
  phaseMs: number;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

function where(phase: ChaosPhase): string {
  if (phase.issuer) return ` on ${phase.issuer.name} (${phase.issuer.id})`;
  return phase.mode === 'rate-limit-without-retry-after' ? '' : ' on every issuer';
}

/** `12 positions requests (2 answered 404) and 5 issuer-list requests`. */
function requestsIn(records: readonly RequestRecord[], issuerId: string | undefined): string {
  const positions = records.filter(
    (r) => r.operation === 'positions' && (issuerId === undefined || r.issuerId === issuerId),
  );
  const odd = new Map<number, number>();
  for (const r of positions) if (r.status !== 200) odd.set(r.status, (odd.get(r.status) ?? 0) + 1);
  const oddText = [...odd].map(([status, count]) => `${count} answered ${status}`).join(', ');
  const lists = records.filter((r) => r.operation === 'issuers').length;
  const target = issuerId === undefined ? '' : ` for ${issuerId}`;
  return `${positions.length} positions requests${target}${oddText ? ` (${oddText})` : ''} and ${lists} issuer-list requests`;
}

/**
 * Cycles the sandbox through a chaos schedule: each phase injects its fault, says what the upstream
 * now does, and when it ends clears it and says what it cost in requests.
 */
export class ChaosRun {
  private index = -1;
  private active = false;
  private from = 0;
  private startedAt = 0;

  constructor(
    private readonly sandbox: ChaosSandbox,
    private readonly schedule: readonly ChaosPhase[],
    private readonly print: (line: string) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Ends the current phase, if any, and starts the next one (round again after the last); returns it. */
  next(): ChaosPhase | undefined {
    this.end();
    if (this.schedule.length === 0) return undefined;
    this.index = (this.index + 1) % this.schedule.length;
    const phase = this.schedule[this.index];
    if (!phase) return undefined;
    const { faults, stats } = this.sandbox;
    if (phase.fault.kind === 'inject') faults.inject(phase.fault.spec);
    else faults.rateLimit(phase.fault.window, phase.fault.options);
    this.active = true;
    this.from = stats.requests.length;
    this.startedAt = this.now().getTime();
    const how = phase.once ? 'once' : 'until the next phase';
    const step = `[${this.index + 1}/${this.schedule.length}]`;
    this.say(`${step} ${phase.mode}${where(phase)}, ${how}: ${phase.says}`);
    return phase;
  }

  /** Ends the current phase: its fault is cleared and what it cost is printed. */
  end(): void {
    const phase = this.schedule[this.index];
    if (!phase || !this.active) return;
    this.active = false;
    const unused = this.sandbox.faults.pending() > 0;
    this.sandbox.faults.clear();
    const records = this.sandbox.stats.requests.slice(this.from);
    const took = seconds(this.now().getTime() - this.startedAt);
    const note = phase.once ? (unused ? '; no request met it' : '; sent once') : '';
    this.say(`${phase.mode} over after ${took}: ${requestsIn(records, phase.issuer?.id)}${note}`);
  }

  private say(text: string): void {
    this.print(alertLine(this.now(), 'chaos', text));
  }
}

/** Runs the cycle on timers (unref'd) until `stop()`, which also clears the last phase's fault. */
export function startChaos(run: ChaosRun, timing: ChaosTiming): { stop(): void } {
  let ticker: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    run.next();
    ticker = setInterval(() => run.next(), timing.phaseMs);
    ticker.unref();
  }, timing.startAfterMs);
  first.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(ticker);
      run.end();
    },
  };
}
