import { describe, expect, it } from 'vitest';
import { smtpOutcome, toDeliveryError } from '../../../src/channels/email/smtp-error.js';

const context = { server: 'mail.example.com:587', action: 'send', secrets: ['s3cret-pass'] };

describe('smtpOutcome', () => {
  it.each([
    {
      name: '451 temporary failure',
      fields: { code: 'EMESSAGE', responseCode: 451, permanent: false },
      outcome: 'retry',
    },
    {
      name: '452 at RCPT',
      fields: { code: 'EENVELOPE', responseCode: 452, permanent: false },
      outcome: 'retry',
    },
    {
      name: '454 temporary AUTH failure',
      fields: { code: 'EAUTH', responseCode: 454, permanent: false },
      outcome: 'retry',
    },
    {
      name: '503 bad sequence (not permanent)',
      fields: { code: 'EPROTOCOL', responseCode: 503, permanent: false },
      outcome: 'retry',
    },
    {
      name: '550 rejected',
      fields: { code: 'EMESSAGE', responseCode: 550, permanent: true },
      outcome: 'park',
    },
    {
      name: '550 at RCPT',
      fields: { code: 'EENVELOPE', responseCode: 550, permanent: true },
      outcome: 'park',
    },
    {
      name: '535 bad credentials',
      fields: { code: 'EAUTH', responseCode: 535, permanent: true },
      outcome: 'park',
    },
    { name: 'EAUTH without a reply', fields: { code: 'EAUTH' }, outcome: 'park' },
    { name: 'ENOAUTH (no credentials)', fields: { code: 'ENOAUTH' }, outcome: 'park' },
    { name: 'EENVELOPE (invalid address)', fields: { code: 'EENVELOPE' }, outcome: 'park' },
    { name: 'ECONNECTION', fields: { code: 'ECONNECTION' }, outcome: 'retry' },
    { name: 'ETIMEDOUT', fields: { code: 'ETIMEDOUT' }, outcome: 'retry' },
    { name: 'ESOCKET', fields: { code: 'ESOCKET', originalCode: 'ECONNREFUSED' }, outcome: 'retry' },
    { name: 'EDNS', fields: { code: 'EDNS' }, outcome: 'retry' },
    { name: 'ECONNRESET', fields: { code: 'ECONNRESET' }, outcome: 'retry' },
    { name: 'nothing known', fields: {}, outcome: 'retry' },
  ] as const)('$name → $outcome', ({ fields, outcome }) => {
    expect(smtpOutcome(fields)).toBe(outcome);
  });
});

describe('toDeliveryError', () => {
  it('keeps code and reply code, and redacts known secrets from the server reply', () => {
    const cause = Object.assign(new Error('Invalid login: 535 bad s3cret-pass'), {
      code: 'EAUTH',
      responseCode: 535,
      permanent: true,
      response: '535 5.7.8 bad s3cret-pass\r\ntry again',
      command: 'AUTH PLAIN',
    });
    const error = toDeliveryError(cause, context);
    expect(error.message).toBe(
      'SMTP mail.example.com:587: send failed: server replied to AUTH PLAIN: 535 5.7.8 bad [redacted] try again',
    );
    expect(error.outcome).toBe('park');
    expect(error.status).toBe(535);
    expect(error.code).toBe('EAUTH');
    expect(error.cause).toBeUndefined();
  });

  it.each([
    { name: 'a string', thrown: 'boom' },
    { name: 'null', thrown: null },
    { name: 'fields of the wrong type', thrown: { code: 42, responseCode: '451' } },
  ])('anything else thrown ($name) is a retry with a plain message', ({ thrown }) => {
    const error = toDeliveryError(thrown, context);
    expect(error.outcome).toBe('retry');
    expect(error.message).toBe('SMTP mail.example.com:587: send failed: unknown error');
  });
});
