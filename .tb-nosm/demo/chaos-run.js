import { alertLine } from "./alert-lines.js";
const DEMO_CHAOS_TIMING = { startAfterMs: 1e4, phaseMs: 12e3 };
const seconds = (ms) => `${Math.round(ms / 100) / 10}s`;
function where(phase) {
  if (phase.issuer) return ` on ${phase.issuer.name} (${phase.issuer.id})`;
  return phase.mode === "rate-limit-without-retry-after" ? "" : " on every issuer";
}
function requestsIn(records, issuerId) {
  const positions = records.filter(
    (r) => r.operation === "positions" && (issuerId === void 0 || r.issuerId === issuerId)
  );
  const odd = /* @__PURE__ */ new Map();
  for (const r of positions) if (r.status !== 200) odd.set(r.status, (odd.get(r.status) ?? 0) + 1);
  const oddText = [...odd].map(([status, count]) => `${count} answered ${status}`).join(", ");
  const lists = records.filter((r) => r.operation === "issuers").length;
  const target = issuerId === void 0 ? "" : ` for ${issuerId}`;
  return `${positions.length} positions requests${target}${oddText ? ` (${oddText})` : ""} and ${lists} issuer-list requests`;
}
class ChaosRun {
  constructor(sandbox, schedule, print, now = () => /* @__PURE__ */ new Date()) {
    this.sandbox = sandbox;
    this.schedule = schedule;
    this.print = print;
    this.now = now;
  }
  sandbox;
  schedule;
  print;
  now;
  index = -1;
  active = false;
  from = 0;
  startedAt = 0;
  /** Ends the current phase, if any, and starts the next one (round again after the last); returns it. */
  next() {
    this.end();
    if (this.schedule.length === 0) return void 0;
    this.index = (this.index + 1) % this.schedule.length;
    const phase = this.schedule[this.index];
    if (!phase) return void 0;
    const { faults, stats } = this.sandbox;
    if (phase.fault.kind === "inject") faults.inject(phase.fault.spec);
    else faults.rateLimit(phase.fault.window, phase.fault.options);
    this.active = true;
    this.from = stats.requests.length;
    this.startedAt = this.now().getTime();
    const how = phase.once ? "once" : "until the next phase";
    const step = `[${this.index + 1}/${this.schedule.length}]`;
    this.say(`${step} ${phase.mode}${where(phase)}, ${how}: ${phase.says}`);
    return phase;
  }
  /** Ends the current phase: its fault is cleared and what it cost is printed. */
  end() {
    const phase = this.schedule[this.index];
    if (!phase || !this.active) return;
    this.active = false;
    const unused = this.sandbox.faults.pending() > 0;
    this.sandbox.faults.clear();
    const records = this.sandbox.stats.requests.slice(this.from);
    const took = seconds(this.now().getTime() - this.startedAt);
    const note = phase.once ? unused ? "; no request met it" : "; sent once" : "";
    this.say(`${phase.mode} over after ${took}: ${requestsIn(records, phase.issuer?.id)}${note}`);
  }
  say(text) {
    this.print(alertLine(this.now(), "chaos", text));
  }
}
function startChaos(run, timing) {
  let ticker;
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
    }
  };
}
export {
  ChaosRun,
  DEMO_CHAOS_TIMING,
  startChaos
};
