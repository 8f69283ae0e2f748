import type { ScenarioChange } from '../../src/sandbox/index.js';
import type { Hazard } from './faults.js';
import { changeTag, digestKey, eventKey, messageKey, type Received, type Unit } from './received.js';

/** The changes of one step, each fully observed by the daemon before the next step. */
export interface StepRecord {
  step: number;
  /** When the step changed the data (epoch ms): nothing of it can arrive earlier. */
  startedAt: number;
  changes: ScenarioChange[];
}

/** One unit a channel must receive exactly once. */
export interface ExpectedUnit {
  key: string;
  step: number;
  startedAt: number;
}

/** A unit received more than once, and the at-least-once hazard that explains it, if any. */
export interface Duplicate {
  unit: Unit;
  /** The copy accepted first. */
  original: Unit;
  explainedBy: string | undefined;
}

/** What one channel got against what it should have got. */
export interface Verdict {
  channel: string;
  unitName: string;
  expected: number;
  received: number;
  missing: ExpectedUnit[];
  invented: Unit[];
  duplicates: Duplicate[];
  unreadable: string[];
  /** Duplicates are never acceptable here (the channel deduplicates by delivery id). */
  exactlyOnce: boolean;
  ok: boolean;
}

/** What each channel kind must receive, from the steps: events, one message per issuer and step, digest lines. */
export function expectedUnits(
  steps: readonly StepRecord[],
  issuerName: (id: string) => string,
): { events: ExpectedUnit[]; messages: ExpectedUnit[]; digest: ExpectedUnit[] } {
  const events: ExpectedUnit[] = [];
  const messages: ExpectedUnit[] = [];
  const digest: ExpectedUnit[] = [];
  for (const { step, startedAt, changes } of steps) {
    const byIssuer = new Map<string, ScenarioChange[]>();
    for (const change of changes) {
      events.push({ key: eventKey(change), step, startedAt });
      const tag = changeTag(change.kind, change.from, change.to);
      digest.push({ key: digestKey(issuerName(change.issuerId), tag), step, startedAt });
      byIssuer.set(change.issuerId, [...(byIssuer.get(change.issuerId) ?? []), change]);
    }
    for (const [issuerId, group] of byIssuer) {
      messages.push({
        key: messageKey(
          issuerId,
          group.map((c) => changeTag(c.kind, c.from, c.to)),
        ),
        step,
        startedAt,
      });
    }
  }
  return { events, messages, digest };
}

/**
 * The hazard that explains a repeat of `original`: one within 2 s of the moment the first copy was
 * accepted (a crash or a cut connection between the receiver's acceptance and the job's completion).
 * A repeat in another group (another digest period) is a replay, never an at-least-once resend.
 */
export function explain(original: Unit, repeat: Unit, hazards: readonly Hazard[]): string | undefined {
  if (original.group !== repeat.group || original.content !== repeat.content) return undefined;
  return hazards.find((h) => h.to >= original.at - 2_000 && h.from <= original.at + 2_000)?.what;
}

/**
 * Matches received units against expected ones, in the order received: a unit takes the oldest
 * pending expected unit with its key whose step had begun when it arrived (one key can recur in
 * several steps); what is left over is a duplicate (its key was expected) or invented (it was not).
 */
export function judge(options: {
  channel: string;
  unitName: string;
  expected: readonly ExpectedUnit[];
  received: Received;
  hazards: readonly Hazard[];
  exactlyOnce: boolean;
}): Verdict {
  const left = new Map<string, ExpectedUnit[]>();
  for (const unit of options.expected) left.set(unit.key, [...(left.get(unit.key) ?? []), unit]);
  const accepted = new Map<string, Unit[]>();
  const invented: Unit[] = [];
  const duplicates: Duplicate[] = [];
  const units = [...options.received.units].sort((a, b) => a.at - b.at);
  const seenIds = new Set<string>();
  for (const unit of units) {
    const pending = left.get(unit.key) ?? [];
    const repeatedId = unit.eventId !== undefined && seenIds.has(unit.eventId);
    if (unit.eventId !== undefined) seenIds.add(unit.eventId);
    const copies = accepted.get(unit.key) ?? [];
    // The copy this one repeats: the latest with the same content (a resend is byte for byte the same).
    const original = copies.findLast((c) => c.content === unit.content) ?? copies.at(-1);
    const index = repeatedId ? -1 : pending.findIndex((e) => e.startedAt <= unit.at);
    if (index >= 0) {
      pending.splice(index, 1);
      accepted.set(unit.key, [...copies, unit]);
    } else if (original) {
      duplicates.push({ unit, original, explainedBy: explain(original, unit, options.hazards) });
    } else {
      invented.push(unit);
    }
  }
  const missing = [...left.values()].flat();
  const badDuplicates = duplicates.filter((d) => options.exactlyOnce || d.explainedBy === undefined);
  return {
    channel: options.channel,
    unitName: options.unitName,
    expected: options.expected.length,
    received: units.length,
    missing,
    invented,
    duplicates,
    unreadable: options.received.unreadable,
    exactlyOnce: options.exactlyOnce,
    ok:
      missing.length === 0 &&
      invented.length === 0 &&
      badDuplicates.length === 0 &&
      options.received.unreadable.length === 0,
  };
}

/** The verdict in a few lines for the story; times are seconds since `startedAt`. */
export function describeVerdict(v: Verdict, startedAt: number): string[] {
  const head = `${v.channel}: expected ${v.expected} ${v.unitName}s, received ${v.received}: ${v.ok ? 'OK' : 'WRONG'}`;
  const list = (items: string[]) =>
    items.slice(0, 12).join('; ') + (items.length > 12 ? `; … ${items.length - 12} more` : '');
  const t = (at: number) => `+${((at - startedAt) / 1000).toFixed(1)}s`;
  const copies = (d: Duplicate) => {
    const where =
      d.original.group !== d.unit.group
        ? ' in two different messages'
        : d.original.content !== d.unit.content
          ? ' with different content'
          : '';
    return `${d.unit.key} at ${t(d.original.at)} and ${t(d.unit.at)}${where}`;
  };
  const lines = [head];
  if (v.missing.length > 0) {
    lines.push(`  missing ${v.missing.length}: ${list(v.missing.map((m) => `${m.key} (step ${m.step})`))}`);
  }
  if (v.invented.length > 0) {
    lines.push(`  invented ${v.invented.length}: ${list(v.invented.map((u) => `${u.key} at ${t(u.at)}`))}`);
  }
  const known = v.duplicates.filter((d) => d.explainedBy !== undefined && !v.exactlyOnce);
  const bad = v.duplicates.filter((d) => d.explainedBy === undefined || v.exactlyOnce);
  if (bad.length > 0) lines.push(`  twice ${bad.length}: ${list(bad.map(copies))}`);
  if (known.length > 0) {
    lines.push(
      `  sent twice, at-least-once after a crash ${known.length}: ${list(known.map((d) => `${copies(d)} (${d.explainedBy})`))}`,
    );
  }
  if (v.unreadable.length > 0) lines.push(`  unreadable ${v.unreadable.length}: ${list(v.unreadable)}`);
  return lines;
}
