import { describe, expect, it } from 'vitest';
import { messageForGroups } from '../../src/channels/coalesced-message.js';
import type { IssuerEvents } from '../../src/channels/types.js';
import { composeNext } from '../../src/delivery/compose.js';
import { eventsDeliveryId } from '../../src/state/delivery-ids.js';
import type { OutboxItem } from '../../src/state/outbox.js';
import { makeEvent } from '../routing/events.js';

function eventItem(id: string, issuer: string, source?: string): OutboxItem {
  const event = makeEvent({
    id,
    issuer: { id: issuer, name: `${issuer} plc` },
    ...(source ? { source } : {}),
  });
  return { kind: 'event', id, event };
}

const all = (groups: readonly IssuerEvents[]) => groups.length;
const two = () => 2;

describe('composeNext', () => {
  it.each([
    {
      name: 'a lone event goes out alone, as a plain events message',
      items: [eventItem('e1', 'A')],
      coalesce: all,
      perSecond: 1,
      type: 'events',
      ids: ['e1'],
    },
    {
      name: 'events of one issuer travel together',
      items: [eventItem('e1', 'A'), eventItem('e2', 'A')],
      coalesce: all,
      perSecond: 1,
      type: 'events',
      ids: ['e1', 'e2'],
    },
    {
      // Two registers list one issuer with totals of their own: one message each, never a mixed sequence.
      name: 'events of one issuer from two sources go in two messages',
      items: [eventItem('e1', 'SE1', 'fi'), eventItem('e2', 'SE1', 'fise'), eventItem('e3', 'SE1', 'fi')],
      coalesce: all,
      perSecond: 20,
      type: 'events',
      ids: ['e1', 'e3'],
    },
    {
      name: 'no backlog at the channel rate: one issuer per message',
      items: [eventItem('e1', 'A'), eventItem('e2', 'B'), eventItem('e3', 'C')],
      coalesce: all,
      perSecond: 20,
      type: 'events',
      ids: ['e1'],
    },
    {
      name: 'a backlog coalesces as many issuers as the channel says fit',
      items: [eventItem('e1', 'A'), eventItem('e2', 'B'), eventItem('e3', 'A'), eventItem('e4', 'C')],
      coalesce: two,
      perSecond: 1,
      type: 'batch',
      ids: ['e1', 'e3', 'e2'],
    },
    {
      // A register's current file and its history both list the ISIN: two views, not one sequence.
      name: 'events of one issuer from two sources go as two messages',
      items: [
        eventItem('e1', 'BE1', 'fsma'),
        eventItem('e2', 'BE1', 'fsmahist'),
        eventItem('e3', 'BE1', 'fsma'),
      ],
      coalesce: all,
      perSecond: 20,
      type: 'events',
      ids: ['e1', 'e3'],
    },
  ])('$name', ({ items, coalesce, perSecond, type, ids }) => {
    const next = composeNext('desk', items, coalesce, perSecond);
    expect(next?.message.type).toBe(type);
    expect(next?.itemIds).toEqual(ids);
    expect(next?.deliveryId).toBe(eventsDeliveryId('desk', ids));
  });

  it('a ready-made message goes alone under its own delivery id', () => {
    const item: OutboxItem = {
      kind: 'message',
      id: 'n-1',
      deliveryId: 'n-1',
      message: { type: 'notice', key: 'k', severity: 'warning', title: 't', text: 'x' },
    };
    const next = composeNext('ops', [item, eventItem('e1', 'A')], all, 1);
    expect(next).toMatchObject({ deliveryId: 'n-1', itemIds: ['n-1'], eventIds: [] });
  });

  it.each([
    { name: 'an events message', groups: [['e1', 'e2']] },
    { name: 'a batch', groups: [['e1'], ['e2', 'e3']] },
  ])('a parked $name sent again still names its events (the deliveries log said Events 0)', ({ groups }) => {
    // `deliveries retry` queues the parked message as a ready-made one under its delivery id.
    const issuerGroups = groups.map((ids, g) => ({
      issuer: { id: `I${g}`, name: `I${g} plc` },
      events: ids.map((id) => makeEvent({ id, issuer: { id: `I${g}`, name: `I${g} plc` } })),
    }));
    const message = messageForGroups(issuerGroups);
    const item: OutboxItem = { kind: 'message', id: 'd-1', deliveryId: 'd-1', message };
    const next = composeNext('desk', [item], all, 1);
    expect(next).toMatchObject({ deliveryId: 'd-1', itemIds: ['d-1'], eventIds: groups.flat() });
  });

  it('a digest carries its batch events in the order they were detected, under the batch id', () => {
    const item: OutboxItem = {
      kind: 'digest',
      id: 'dg-1',
      batchId: 'dg-1',
      period: { from: 'a', to: 'b', timezone: 'UTC' },
    };
    const late = makeEvent({ id: 'late', detectedAt: '2026-03-03T12:00:00.000Z' });
    const early = makeEvent({ id: 'early', detectedAt: '2026-03-03T09:00:00.000Z' });
    const next = composeNext('morning', [item], all, 1, [late, early]);
    expect(next).toMatchObject({ deliveryId: 'dg-1', digestBatch: 'dg-1', eventIds: ['early', 'late'] });
  });

  it('nothing ready composes nothing', () => {
    expect(composeNext('desk', [], all, 1)).toBeUndefined();
  });
});
