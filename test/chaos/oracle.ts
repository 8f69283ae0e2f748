import type { ScenarioChange } from '../../src/sandbox/index.js';
import type { Hazard } from './faults.js';
import { digestKey, eventKey, messageKey, type Received, type Unit } from './received.js';

/** The changes of one step, each fully observed by the daemon before the next step. */
export interface StepRecord {
  step: number;
  changes: ScenarioChange[];
}

/** One unit a channel must receive exactly once. */
export interface ExpectedUnit {
  key: string;
  step: number;
}

/** A unit received more than once, and the at-least-once hazard that explains it, if any. */
export interface Duplicate {
  unit: Unit;
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
  for (const { step, changes } of steps) {
    const byIssuer = new Map<string, ScenarioChange[]>();
    for (const change of changes) {
      events.push({ key: eventKey(change), step });
      digest.push({ key: digestKey(issuerName(change.issuerId), change.kind), step });
      byIssuer.set(change.issuerId, [...(byIssuer.get(change.issuerId) ?? []), change]);
    }
    for (const [issuerId, group] of byIssuer) {
      messages.push({
        key: messageKey(
          issuerId,
          group.map((c) => c.kind),
        ),
        step,
      });
    }
  }
  return { events, messages, digest };
}

/** A duplicate first received at `at` is explained by a hazard from shortly before to a few seconds after. */
export function explain(at: number, hazards: readonly Hazard[]): string | undefined {
  return hazards.find((h) => h.to >= at - 1_000 && h.from <= at + 5_000)?.what;
}

/**
 * Matches received units against expected ones: each expected unit consumes one received unit with
 * its key; what is left over is a duplicate (its key was expected) or invented (it was not).
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
  const firstSeen = new Map<string, number>();
  const invented: Unit[] = [];
  const duplicates: Duplicate[] = [];
  const units = [...options.received.units].sort((a, b) => a.at - b.at);
  const seenIds = new Set<string>();
  for (const unit of units) {
    const pending = left.get(unit.key);
    const repeatedId = unit.eventId !== undefined && seenIds.has(unit.eventId);
    if (unit.eventId !== undefined) seenIds.add(unit.eventId);
    if (pending && pending.length > 0 && !repeatedId) {
      pending.shift();
      if (!firstSeen.has(unit.key)) firstSeen.set(unit.key, unit.at);
    } else if (options.expected.some((e) => e.key === unit.key)) {
      duplicates.push({ unit, explainedBy: explain(firstSeen.get(unit.key) ?? unit.at, options.hazards) });
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

/** The verdict in a few lines for the story. */
export function describeVerdict(v: Verdict): string[] {
  const head = `${v.channel}: expected ${v.expected} ${v.unitName}s, received ${v.received}: ${v.ok ? 'OK' : 'WRONG'}`;
  const list = (items: string[]) =>
    items.slice(0, 12).join('; ') + (items.length > 12 ? `; … ${items.length - 12} more` : '');
  const lines = [head];
  if (v.missing.length > 0)
    lines.push(`  missing ${v.missing.length}: ${list(v.missing.map((m) => `${m.key} (step ${m.step})`))}`);
  if (v.invented.length > 0)
    lines.push(`  invented ${v.invented.length}: ${list(v.invented.map((u) => u.key))}`);
  const known = v.duplicates.filter((d) => d.explainedBy !== undefined && !v.exactlyOnce);
  const bad = v.duplicates.filter((d) => d.explainedBy === undefined || v.exactlyOnce);
  if (bad.length > 0) {
    lines.push(
      `  twice ${bad.length}: ${list(bad.map((d) => `${d.unit.key}${d.explainedBy ? ` (near ${d.explainedBy})` : ''}`))}`,
    );
  }
  if (known.length > 0) {
    lines.push(
      `  sent twice, at-least-once after a crash ${known.length}: ${list(known.map((d) => `${d.unit.key} (${d.explainedBy})`))}`,
    );
  }
  if (v.unreadable.length > 0) lines.push(`  unreadable ${v.unreadable.length}: ${list(v.unreadable)}`);
  return lines;
}
