import type { ScenarioChange } from '../../src/sandbox/index.js';
import type { Hazard } from './faults.js';
import { changeKey, changeTag, digestKey, eventKey, type Received, type Unit } from './received.js';

/** The changes of one step, each fully observed by the daemon before the next step. */
export interface StepRecord {
  step: number;
  /** When the step changed the data (epoch ms): nothing of it can arrive earlier. */
  startedAt: number;
  changes: ScenarioChange[];
}

/** One unit a channel must receive exactly once (an optional one: at most once). */
export interface ExpectedUnit {
  key: string;
  step: number;
  startedAt: number;
  /**
   * A close already told as its fall below 0.5%: no message of its own on a people channel, but a message
   * that carries the holder's reopening shows it as the `off the list` stop of the holder's sequence.
   */
  optional?: true;
}

/**
 * When a channel may receive a unit again:
 * - `never`: the receiver deduplicates by delivery id, so any event it accepted twice is a bug;
 * - `same-message-id`: only inside a resend of the same e-mail (same Message-ID), which a mail system
 *   drops as a repeat;
 * - `resend-after-crash`: only inside a whole message sent again (Slack has no id) after a crash, a cut
 *   connection or a Redis pause while that message was being sent.
 */
export type RepeatRule = 'never' | 'same-message-id' | 'resend-after-crash';

/** A unit received more than once. */
export interface Duplicate {
  unit: Unit;
  /** The copy accepted first. */
  original: Unit;
  /** The repeat came in the same message sent again (same event id, Message-ID or whole Slack post). */
  resend: boolean;
  /** Why the repeat is acceptable under the channel's rule; undefined when it is not. */
  explainedBy: string | undefined;
}

/** What one channel got against what it should have got. */
export interface Verdict {
  /** The configured channel name (`desk`). */
  name: string;
  /** How the story names it (`desk (Slack)`). */
  channel: string;
  unitName: string;
  rule: RepeatRule;
  expected: number;
  received: number;
  /** Everything received, in arrival order. */
  units: Unit[];
  /** Messages the channel accepted, repeats included. */
  messages: number;
  missing: ExpectedUnit[];
  invented: Unit[];
  duplicates: Duplicate[];
  unreadable: string[];
  inconsistent: string[];
  ok: boolean;
}

/** What each channel kind must receive, from the steps: events (webhook), changes per issuer (Slack, e-mail), digest lines. */
export function expectedUnits(
  steps: readonly StepRecord[],
  issuerName: (id: string) => string,
): { events: ExpectedUnit[]; changes: ExpectedUnit[]; digest: ExpectedUnit[] } {
  const events: ExpectedUnit[] = [];
  const changes: ExpectedUnit[] = [];
  const digest: ExpectedUnit[] = [];
  // Holders whose last change was a fall below 0.5% still listed: the fall people channels were told.
  const fallen = new Set<string>();
  for (const { step, startedAt, changes: stepChanges } of steps) {
    for (const change of stepChanges) {
      const tag = changeTag(change.kind, change.from, change.to);
      events.push({ key: eventKey(change), step, startedAt });
      // A position listed under 0.5% that leaves the list was told when it fell below: people
      // channels do not get it again (alerts.confirmedCloses keeps it as a quiet digest line). One
      // that never fell while watched (listed under 0.5% from the start) was told to none: its close is.
      const holder = `${change.issuerId}|${change.holderKey}`;
      const confirmsFall = change.kind === 'closed' && fallen.has(holder);
      if (change.from !== null && change.from >= 0.5 && change.to !== null && change.to < 0.5)
        fallen.add(holder);
      else fallen.delete(holder);
      changes.push({
        key: changeKey(change.issuerId, tag),
        step,
        startedAt,
        ...(confirmsFall ? { optional: true as const } : {}),
      });
      digest.push({ key: digestKey(issuerName(change.issuerId), tag), step, startedAt });
    }
  }
  return { events, changes, digest };
}

/** A crash can make a message go again when it hits up to this long before its first copy was taken… */
const HAZARD_BEFORE_MS = 2_000;
/** …or this long after (a slow Slack answers up to 3 s after it took the post, and the sender waits). */
const HAZARD_AFTER_MS = 5_000;

/** The hazard near the moment the first copy was accepted: one that can lose the sender's "done". */
export function hazardNear(original: Unit, hazards: readonly Hazard[]): string | undefined {
  return hazards.find(
    (h) => h.to >= original.at - HAZARD_BEFORE_MS && h.from <= original.at + HAZARD_AFTER_MS,
  )?.what;
}

/** Why a resend of the same message is acceptable under `rule`, or undefined. */
function explainResend(rule: RepeatRule, original: Unit, hazards: readonly Hazard[]): string | undefined {
  if (rule === 'never') return undefined;
  if (rule === 'same-message-id') return `same Message-ID ${original.messageId ?? '?'}`;
  return hazardNear(original, hazards);
}

/**
 * Matches received units against expected ones, in the order received. A unit that repeats one of an
 * earlier message (same resend key) is a resend, judged by the channel's rule. Any other unit takes the
 * oldest pending expected unit with its key whose step had begun when it arrived (one key can recur in
 * several steps); what is left over is a duplicate in another message (never acceptable) or invented.
 */
export function judge(options: {
  name: string;
  channel: string;
  unitName: string;
  expected: readonly ExpectedUnit[];
  received: Received;
  hazards: readonly Hazard[];
  rule: RepeatRule;
}): Verdict {
  const left = new Map<string, ExpectedUnit[]>();
  for (const unit of options.expected) left.set(unit.key, [...(left.get(unit.key) ?? []), unit]);
  const accepted = new Map<string, Unit[]>();
  const firstCopy = new Map<string, Unit>();
  const invented: Unit[] = [];
  const duplicates: Duplicate[] = [];
  const units = [...options.received.units].sort((a, b) => a.at - b.at);
  for (const unit of units) {
    const earlier = unit.resendKey === undefined ? undefined : firstCopy.get(unit.resendKey);
    if (earlier) {
      const explainedBy = explainResend(options.rule, earlier, options.hazards);
      duplicates.push({ unit, original: earlier, resend: true, explainedBy });
      continue;
    }
    if (unit.resendKey !== undefined) firstCopy.set(unit.resendKey, unit);
    const pending = left.get(unit.key) ?? [];
    const copies = accepted.get(unit.key) ?? [];
    // A unit takes a required expected one before an optional one of the same key (a close's key names
    // no holder: one holder's real close and another's close already told share it).
    const due = (e: ExpectedUnit) => e.startedAt <= unit.at;
    const required = pending.findIndex((e) => due(e) && !e.optional);
    const index = required >= 0 ? required : pending.findIndex(due);
    if (index >= 0) {
      pending.splice(index, 1);
      accepted.set(unit.key, [...copies, unit]);
    } else {
      const original = copies.at(-1);
      if (original) duplicates.push({ unit, original, resend: false, explainedBy: undefined });
      else invented.push(unit);
    }
  }
  const missing = [...left.values()].flat().filter((e) => !e.optional);
  const { unreadable, inconsistent } = options.received;
  return {
    name: options.name,
    channel: options.channel,
    unitName: options.unitName,
    rule: options.rule,
    expected: options.expected.filter((e) => !e.optional).length,
    received: units.length,
    units,
    messages: options.received.messages,
    missing,
    invented,
    duplicates,
    unreadable,
    inconsistent,
    ok:
      missing.length === 0 &&
      invented.length === 0 &&
      duplicates.every((d) => d.explainedBy !== undefined) &&
      unreadable.length === 0 &&
      inconsistent.length === 0,
  };
}

/** Received messages whose units name more than one issuer (coalesced batches). */
export function batches(v: Verdict): number {
  const issuers = new Map<string, Set<string>>();
  for (const unit of v.units) {
    if (unit.message === undefined || unit.issuer === undefined) continue;
    issuers.set(unit.message, (issuers.get(unit.message) ?? new Set()).add(unit.issuer));
  }
  return [...issuers.values()].filter((set) => set.size > 1).length;
}

/** The messages resent whole, and the units they repeated, among the acceptable duplicates. */
export function resends(v: Verdict): { messages: number; units: number } {
  const accepted = v.duplicates.filter((d) => d.explainedBy !== undefined);
  return { messages: new Set(accepted.map((d) => d.unit.message)).size, units: accepted.length };
}

const RESEND_WORDS: Record<RepeatRule, string> = {
  never: 'resent',
  'same-message-id': 'resent under the same Message-ID (a mail system drops them)',
  'resend-after-crash': 'resent whole after a crash inside a send',
};

/** The verdict in a few lines for the story; times are seconds since `startedAt`. */
export function describeVerdict(v: Verdict, startedAt: number): string[] {
  const resent = resends(v);
  const again =
    resent.messages > 0
      ? `; ${resent.messages} message(s) ${RESEND_WORDS[v.rule]}, repeating ${resent.units} ${v.unitName}(s)`
      : '';
  const batched = batches(v);
  const several = batched > 0 ? ` (${batched} carrying several issuers)` : '';
  const head = `${v.channel}: expected ${v.expected} ${v.unitName}s, received ${v.received} in ${v.messages} message(s)${several}${again}: ${v.ok ? 'OK' : 'WRONG'}`;
  const list = (items: string[]) =>
    items.slice(0, 12).join('; ') + (items.length > 12 ? `; … ${items.length - 12} more` : '');
  const t = (at: number) => `+${((at - startedAt) / 1000).toFixed(1)}s`;
  const copies = (d: Duplicate) => {
    const how = d.resend
      ? ' in the same message sent again'
      : d.original.group !== d.unit.group
        ? ' in two different digest periods'
        : ' in two different messages';
    return `${d.unit.key} at ${t(d.original.at)} and ${t(d.unit.at)}${how}`;
  };
  const lines = [head];
  if (v.missing.length > 0) {
    lines.push(`  missing ${v.missing.length}: ${list(v.missing.map((m) => `${m.key} (step ${m.step})`))}`);
  }
  if (v.invented.length > 0) {
    lines.push(`  invented ${v.invented.length}: ${list(v.invented.map((u) => `${u.key} at ${t(u.at)}`))}`);
  }
  const known = v.duplicates.filter((d) => d.explainedBy !== undefined);
  const bad = v.duplicates.filter((d) => d.explainedBy === undefined);
  if (bad.length > 0) {
    const why = (d: Duplicate) =>
      d.resend && v.rule === 'resend-after-crash' ? ' (no crash near the first copy)' : '';
    lines.push(`  twice ${bad.length}: ${list(bad.map((d) => `${copies(d)}${why(d)}`))}`);
  }
  if (known.length > 0 && v.rule === 'resend-after-crash') {
    lines.push(
      `  sent twice, at-least-once after a crash ${known.length}: ${list(known.map((d) => `${copies(d)} (${d.explainedBy})`))}`,
    );
  }
  if (v.unreadable.length > 0) lines.push(`  unreadable ${v.unreadable.length}: ${list(v.unreadable)}`);
  if (v.inconsistent.length > 0) {
    lines.push(`  inconsistent ids ${v.inconsistent.length}: ${list(v.inconsistent)}`);
  }
  return lines;
}

/**
 * Messages sent again whose first copy was accepted near a Redis outage and near no crash: with every
 * process alive nothing may repeat, even where a channel's rule (same Message-ID) would let it pass.
 */
export function repeatsAfterOutages(
  verdicts: readonly Verdict[],
  outages: readonly Hazard[],
  crashes: readonly Hazard[],
): string[] {
  return verdicts.flatMap((v) =>
    v.duplicates.flatMap((d) => {
      const outage = hazardNear(d.original, outages);
      if (!outage || hazardNear(d.original, crashes)) return [];
      return [`${v.channel}: a ${v.unitName} was sent again after ${outage}, with every process alive`];
    }),
  );
}
