import { round4 } from '../../src/positions/round.js';
import { positionsBody } from '../../src/sandbox/answers.js';
import { holderKeyOf, type Scenario, type ScenarioChange } from '../../src/sandbox/index.js';
import type { Random } from '../../src/sandbox/prng.js';
import type { Story } from './story.js';
import type { ChaosWorld } from './world.js';

/**
 * Issue 20, finding 1, under chaos: one holder's row left out of one positions answer (served with the
 * list's current version, so the daemon takes it as the truth and tells a close), back in the next step
 * (a reopening), then really gone in the step after (a second close). The sandbox's own steps list none
 * of these transitions, so the episode rewrites each step's expected changes for that holder as the
 * daemon sees them: a diff from what its snapshot last held to what the register lists now.
 */
export interface RowMissing {
  issuerId: string;
  holder: string;
  holderKey: string;
  /** The holder's value as the daemon's snapshot holds it (null: absent since the answer left it out). */
  seen: number | null;
  /** `served`: the answer without the row is out; `back`: the row was seen again; `done`. */
  phase: 'served' | 'back' | 'done';
}

/**
 * The holders ≥ 0.6% of the step that this step did not touch: a close is then told to people (not a
 * confirmed fall), and the sandbox's flapper (0.50-0.56%) is never taken. A holder listed on two rows
 * under two spellings of one key ("D.E. Shaw & Co., L.P." and "D.E. SHAW & CO LP", seed 414971360) is
 * not taken either: leaving out the key drops both rows, and which value the daemon's snapshot held
 * for the key is the daemon's rule, not this episode's to guess.
 */
function candidates(scenario: Scenario, changes: readonly ScenarioChange[]): RowMissing[] {
  const touched = new Set(changes.map((c) => `${c.issuerId}|${c.holderKey}`));
  return scenario.issuers().flatMap((issuer) => {
    const rows = scenario.active(issuer.svc_issuer_id) ?? [];
    const rowsOfKey = (key: string) => rows.filter((row) => holderKeyOf(row.position_holder) === key).length;
    return rows
      .filter((row) => row.value >= 0.6 && rowsOfKey(holderKeyOf(row.position_holder)) === 1)
      .map((row) => ({
        issuerId: issuer.svc_issuer_id,
        holder: row.position_holder,
        holderKey: holderKeyOf(row.position_holder),
        seen: round4(row.value),
        phase: 'served' as const,
      }))
      .filter((c) => !touched.has(`${c.issuerId}|${c.holderKey}`));
  });
}

/** Queues the next positions answer of one issuer without one holder's row, stamped with the list's version. */
export function serveWithoutRow(
  world: ChaosWorld,
  changes: readonly ScenarioChange[],
  rng: Random,
  story: Story,
): RowMissing | undefined {
  const { scenario, faults } = world.stack.sandbox;
  const episode = rng.pick(candidates(scenario, changes));
  const body = episode && positionsBody(scenario, episode.issuerId, 'active');
  if (!episode || !body) return undefined;
  const data = body.data.filter((row) => holderKeyOf(row.position_holder) !== episode.holderKey);
  faults.inject({ operation: 'positions', issuerId: episode.issuerId, body: { ...body, data } });
  story.add(
    'inject',
    `the next positions answer of ${episode.issuerId} leaves out ${episode.holder} (${episode.seen}%), at the list's version ${body.last_updated}`,
  );
  return episode;
}

/**
 * After the step was observed: the close, if the daemon's snapshot took the answer without the row. A
 * poll that never met the fault (the burst came first, or a rerun after a kill) leaves the row in.
 */
export async function closeSeen(
  world: ChaosWorld,
  episode: RowMissing,
  story: Story,
): Promise<ScenarioChange[]> {
  const snapshot = await world.snapshots.get(episode.issuerId);
  if (snapshot === null || Object.hasOwn(snapshot.positions, episode.holderKey)) {
    episode.phase = 'done';
    story.add(
      'saw',
      `no poll of ${episode.issuerId} met the answer without ${episode.holder}: no close expected`,
    );
    return [];
  }
  const close = changeFrom(episode, null);
  episode.seen = null;
  story.add(
    'saw',
    `${episode.issuerId}'s snapshot took the answer without ${episode.holder}: a close expected`,
  );
  return close;
}

/** The holder's listed value now, or null when it is not listed. */
function listed(scenario: Scenario, episode: RowMissing): number | null {
  const row = scenario
    .active(episode.issuerId)
    ?.find((r) => holderKeyOf(r.position_holder) === episode.holderKey);
  return row ? round4(row.value) : null;
}

/** The change the daemon sees for the holder, from what its snapshot holds to `now`; none when equal. */
function changeFrom(episode: RowMissing, now: number | null): ScenarioChange[] {
  const { issuerId, holder, holderKey, seen } = episode;
  if (seen === now) return [];
  const base = { issuerId, holder, holderKey, from: seen, to: now };
  if (seen === null) return [{ ...base, kind: 'opened' }];
  if (now === null) return [{ ...base, kind: 'closed' }];
  return [{ ...base, kind: now > seen ? 'increased' : 'decreased' }];
}

/**
 * A step after the answer without the row: its changes with the holder's replaced by what the daemon
 * sees. The first step after brings the row back (a reopening); the next drops the holder for real.
 */
export function followUp(
  world: ChaosWorld,
  episode: RowMissing,
  changes: readonly ScenarioChange[],
  story: Story,
): ScenarioChange[] {
  const { scenario } = world.stack.sandbox;
  const others = changes.filter(
    (c) => !(c.issuerId === episode.issuerId && c.holderKey === episode.holderKey),
  );
  if (episode.phase === 'back' && listed(scenario, episode) !== null) {
    scenario.drop(episode.issuerId, episode.holder);
    story.add('inject', `${episode.holder} really leaves the register of ${episode.issuerId}`);
  }
  const now = listed(scenario, episode);
  const own = changeFrom(episode, now);
  const what = own.map((c) => `${c.kind} ${c.from ?? '-'} → ${c.to ?? '-'}`).join(', ') || 'nothing';
  story.add('saw', `expected for ${episode.holder} of ${episode.issuerId} after the missing row: ${what}`);
  episode.seen = now;
  episode.phase = episode.phase === 'served' && now !== null ? 'back' : 'done';
  return [...others, ...own];
}
