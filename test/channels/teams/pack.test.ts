import { describe, expect, it } from 'vitest';
import { messageForGroups } from '../../../src/channels/coalesced-message.js';
import {
  coalesceTeams,
  jsonBytes,
  renderTeams,
  renderTeamsParts,
  TEAMS_MAX_BYTES,
  type TeamsPayload,
} from '../../../src/channels/teams/index.js';
import type { IssuerEvents, Message } from '../../../src/channels/types.js';
import { ACME, holderRaise, raises } from '../story-fixtures.js';

const DELIVERY = 'd-0a1b2c3d-00112233445566778899aabb';

const texts = (payload: TeamsPayload) => payload.attachments[0].content.body.map((block) => block.text);
const titleOf = (payload: TeamsPayload) => texts(payload)[0];

/** Holders named in event lines, in order, across every part. */
function holdersShown(payloads: readonly TeamsPayload[]): string[] {
  return payloads.flatMap(texts).flatMap((text) => {
    const match = /^⬆️ \*\*(Holder \d+) Capital Management LLP\*\*/.exec(text);
    return match?.[1] ? [match[1]] : [];
  });
}

describe('splitting a long message', () => {
  const events = raises(300);
  const message: Message = { type: 'events', issuer: ACME, events };
  const payloads = renderTeams(message, { deliveryId: DELIVERY });

  it('shows every event exactly once, in order, across several cards', () => {
    expect(payloads.length).toBeGreaterThan(1);
    expect(holdersShown(payloads)).toEqual(events.map((_, i) => `Holder ${i}`));
  });

  it('keeps each card under the byte limit, as measured on the UTF-8 JSON', () => {
    for (const payload of payloads) expect(jsonBytes(payload)).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
    const parts = renderTeamsParts(message, { deliveryId: DELIVERY });
    expect(parts.map((part) => part.bytes)).toEqual(payloads.map((payload) => jsonBytes(payload)));
  });

  it('labels the parts and repeats the total and the delivery id on each', () => {
    const total = payloads.length;
    expect(payloads.map(titleOf)).toEqual(payloads.map((_, i) => `Acme plc (${i + 1}/${total})`));
    for (const payload of payloads) {
      expect(texts(payload).slice(-2)).toEqual([
        'ISS-1 · Issuer total disclosed short 1.20% → 91.20% (+90.00 pp) · disclosed 2024-05-02',
        `Delivery ${DELIVERY}`,
      ]);
    }
  });

  it('fills cards: a smaller limit gives more parts, each within it', () => {
    const small = renderTeamsParts(message, { deliveryId: DELIVERY, maxBytes: 5_000 });
    expect(small.length).toBeGreaterThan(payloads.length);
    for (const part of small) expect(part.bytes).toBeLessThanOrEqual(5_000);
    expect(holdersShown(small.map((part) => part.payload))).toEqual(holdersShown(payloads));
  });

  it('repeats an issuer heading cut by a part boundary, marked continued', () => {
    const bolt = { id: 'ISS-2', name: 'Bolt AG' };
    const groups: IssuerEvents[] = [
      { issuer: ACME, events: raises(10) },
      { issuer: bolt, events: raises(10, bolt, 10) },
    ];
    const parts = renderTeams({ type: 'batch', groups }, { maxBytes: 2_000 });
    expect(parts.length).toBeGreaterThan(2);
    const headings = parts.flatMap(texts).filter((text) => /^\*\*(Acme plc|Bolt AG)\*\*/.test(text));
    expect(headings[0]).toBe('**Acme plc** (ISS-1) · total 1.20% → 4.20% (+3.00 pp) · disclosed 2024-05-02');
    const continued = headings.filter((text) => text.endsWith(' (continued)'));
    expect(continued.length).toBeGreaterThan(0);
    // Each issuer opens once; every other heading is a continuation.
    expect(headings.length - continued.length).toBe(2);
    for (const payload of parts.slice(1)) expect(texts(payload)[1]).toMatch(/^\*\*(Acme plc|Bolt AG)\*\*/);
  });

  it('cuts a notice line too long for one block into pieces, losing nothing', () => {
    const text = `start ${'word '.repeat(2_000)}end`;
    const blocks = renderTeams({
      type: 'notice',
      key: 'k',
      severity: 'warning',
      title: 'Long',
      text,
    }).flatMap(texts);
    expect(blocks.slice(1).join('')).toBe(text);
  });
});

describe('halving a part Teams refused (413)', () => {
  const events = raises(7);
  const [whole] = renderTeamsParts({ type: 'events', issuer: ACME, events });

  it('halves a whole message into 1/2 and 2/2, every entry once', () => {
    const halves = whole?.split() ?? [];
    expect(halves.map((half) => titleOf(half.payload))).toEqual(['Acme plc (1/2)', 'Acme plc (2/2)']);
    expect(holdersShown(halves.map((half) => half.payload))).toEqual(events.map((_, i) => `Holder ${i}`));
  });

  it('halves a part of a split message into 2a and 2b, and those again', () => {
    const parts = renderTeamsParts({ type: 'events', issuer: ACME, events: raises(40) }, { maxBytes: 4_000 });
    const second = parts[1];
    const halves = second?.split() ?? [];
    expect(halves.map((half) => titleOf(half.payload))).toEqual([
      `Acme plc (2a/${parts.length})`,
      `Acme plc (2b/${parts.length})`,
    ]);
    expect(halves[1]?.split()?.map((half) => titleOf(half.payload))).toEqual([
      `Acme plc (2ba/${parts.length})`,
      `Acme plc (2bb/${parts.length})`,
    ]);
    expect(holdersShown(halves.map((half) => half.payload))).toEqual(
      holdersShown(second ? [second.payload] : []),
    );
  });

  it('cannot halve a single entry', () => {
    const [only] = renderTeamsParts({ type: 'test', channel: 'desk', sentAt: '2024-05-02T07:31:00Z' });
    expect(only?.split()).toBeUndefined();
  });
});

describe('coalesceTeams', () => {
  const groups = Array.from({ length: 400 }, (_, i) => ({
    issuer: { id: `ISS-${i}`, name: `Issuer ${i} plc` },
    events: [holderRaise(i, { id: `ISS-${i}`, name: `Issuer ${i} plc` })],
  }));

  it('takes the largest number of issuers whose message is one card', () => {
    const k = coalesceTeams(groups);
    expect(k).toBeGreaterThan(1);
    expect(k).toBeLessThan(groups.length);
    const options = { deliveryId: DELIVERY };
    expect(renderTeams(messageForGroups(groups.slice(0, k)), options)).toHaveLength(1);
    expect(renderTeams(messageForGroups(groups.slice(0, k + 1)), options)).toHaveLength(2);
  });

  it('takes every group when all fit, one lone issuer, and none of none', () => {
    expect(coalesceTeams(groups.slice(0, 3))).toBe(3);
    expect(coalesceTeams(groups.slice(0, 1))).toBe(1);
    expect(coalesceTeams([])).toBe(0);
  });

  it('takes at least one issuer even when it alone needs several cards', () => {
    const big = { issuer: ACME, events: raises(300) };
    expect(coalesceTeams([big, ...groups.slice(0, 3)])).toBe(1);
  });
});
