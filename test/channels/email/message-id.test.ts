import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryMessageId, senderDomain } from '../../../src/channels/email/message-id.js';

describe('senderDomain', () => {
  it.each([
    { name: 'a bare address', from: 'alerts@example.com', domain: 'example.com' },
    { name: 'a display name', from: 'Shortwatch <alerts@mail.example.co.uk>', domain: 'mail.example.co.uk' },
    { name: 'a quoted display name with @', from: '"Desk @ Fund" <a@fund.example>', domain: 'fund.example' },
    { name: 'no @', from: 'shortwatch', domain: 'shortwatch.invalid' },
    { name: 'an empty domain', from: 'alerts@', domain: 'shortwatch.invalid' },
    { name: 'a domain with odd characters', from: 'a@exa mple.com', domain: 'shortwatch.invalid' },
    { name: 'an IP literal', from: 'a@[127.0.0.1]', domain: 'shortwatch.invalid' },
  ])('$name → $domain', ({ from, domain }) => {
    expect(senderDomain(from)).toBe(domain);
  });
});

describe('deliveryMessageId', () => {
  const sha = (id: string) => createHash('sha256').update(id).digest('hex');

  it.each([
    { name: 'a plain id', id: 'dlv-3f2a9c', expected: '<dlv-3f2a9c@example.com>' },
    { name: 'a dotted id', id: 'desk.3f2a9c', expected: '<desk.3f2a9c@example.com>' },
    {
      name: 'an id with a colon is hashed',
      id: 'desk:3f2a9c',
      expected: `<sha256.${sha('desk:3f2a9c')}@example.com>`,
    },
    {
      name: 'an id with CR LF is hashed',
      id: 'a\r\nBcc: x@y',
      expected: `<sha256.${sha('a\r\nBcc: x@y')}@example.com>`,
    },
    {
      name: 'a very long id is hashed',
      id: 'x'.repeat(201),
      expected: `<sha256.${sha('x'.repeat(201))}@example.com>`,
    },
  ])('$name', ({ id, expected }) => {
    expect(deliveryMessageId(id, 'Shortwatch <alerts@example.com>')).toBe(expected);
  });
});
