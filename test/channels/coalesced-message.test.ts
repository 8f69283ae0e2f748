import { describe, expect, it } from 'vitest';
import { messageForGroups } from '../../src/channels/coalesced-message.js';
import { issuerEventsSchema, messageSchema } from '../../src/channels/message-schema.js';
import type { IssuerEvents, Message } from '../../src/channels/types.js';
import { ACME, makeEvent } from './email/fixtures.js';

const acme: IssuerEvents = { issuer: ACME, events: [makeEvent()] };
const beta: IssuerEvents = { issuer: { id: 'ISS-2', name: 'Beta' }, events: [makeEvent({ id: 'evt-2' })] };

describe('messageForGroups', () => {
  it.each([
    {
      name: 'a lone issuer is a plain events message',
      groups: [acme],
      expected: { type: 'events', ...acme },
    },
    {
      name: 'two issuers are a batch',
      groups: [acme, beta],
      expected: { type: 'batch', groups: [acme, beta] },
    },
    { name: 'no issuers is an empty batch', groups: [], expected: { type: 'batch', groups: [] } },
  ])('$name', ({ groups, expected }) => {
    expect(messageForGroups(groups)).toEqual(expected);
  });
});

describe('messageSchema', () => {
  it('reads a batch back as written', () => {
    const batch: Message = { type: 'batch', groups: [acme, beta] };
    expect(messageSchema.parse(JSON.parse(JSON.stringify(batch)))).toEqual(batch);
  });

  it.each([
    { name: 'a batch without groups', value: { type: 'batch' } },
    { name: 'a group without an issuer', value: { type: 'batch', groups: [{ events: [] }] } },
    {
      name: 'a group with a malformed event',
      value: { type: 'batch', groups: [{ issuer: ACME, events: [{}] }] },
    },
  ])('rejects $name', ({ value }) => {
    expect(messageSchema.safeParse(value).success).toBe(false);
  });

  it('reads one issuer’s waiting events', () => {
    expect(issuerEventsSchema.parse(JSON.parse(JSON.stringify(acme)))).toEqual(acme);
  });
});
