import { describe, expect, it } from 'vitest';
import { renderConsoleLine } from '../../src/channels/console/index.js';
import { renderEmail } from '../../src/channels/email/render.js';
import { displayNotice, displayText, stringifyVisible } from '../../src/channels/format.js';
import { coalesceSlack, renderSlack, SLACK_LIMITS, withinLimits } from '../../src/channels/slack/index.js';
import { jsonBytes, renderTeams, TEAMS_MAX_BYTES } from '../../src/channels/teams/index.js';
import type { IssuerEvents, Message } from '../../src/channels/types.js';
import { renderWebhookBody } from '../../src/channels/webhook/render.js';
import { ACME, makeEvent } from './email/fixtures.js';

// With the `u` flag a surrogate pair is one code point outside this range, so only unpaired halves match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

const names = [
  { name: 'a 5,000-character holder', holder: 'X'.repeat(5000), issuerName: 'Acme plc' },
  { name: 'a holder with a lone surrogate', holder: 'Fund \uD800 plc', issuerName: 'Acme plc' },
  { name: 'an issuer with a lone surrogate', holder: 'Marshall Wace', issuerName: 'Acme \uDC00 plc' },
  {
    name: 'a 5,000-character issuer with a lone surrogate',
    holder: 'Fund',
    issuerName: `\uD800${'Y'.repeat(5000)}`,
  },
];

const PERIOD = { from: '2024-11-20T07:30:00.000Z', to: '2024-11-21T07:30:00.000Z', timezone: 'UTC' };

/** The events message, a batch of it with another issuer, and a digest, for one pair of hostile names. */
function messages(holder: string, issuerName: string): { label: string; message: Message }[] {
  const issuer = { id: 'ISS-9', name: issuerName };
  // Two holders of one poll: the issuer total moves by both raises.
  const issuerTotal = { before: 3.4, after: 3.64 };
  const hostile: IssuerEvents = {
    issuer,
    events: [
      makeEvent({ holder, issuer, issuerTotal }),
      makeEvent({ id: 'evt-2', holder: 'Citadel', holderKey: 'citadel', issuer, issuerTotal }),
    ],
  };
  const plain: IssuerEvents = { issuer: ACME, events: [makeEvent({ id: 'evt-3' })] };
  return [
    { label: 'events', message: { type: 'events', ...hostile } },
    { label: 'batch', message: { type: 'batch', groups: [plain, hostile] } },
    { label: 'digest', message: { type: 'digest', period: PERIOD, events: hostile.events } },
  ];
}

describe.each(names)('$name', ({ holder, issuerName }) => {
  const cases = messages(holder, issuerName);

  it.each(cases)(
    'Slack ($label): every payload within limits, no lone surrogate in the JSON',
    ({ message }) => {
      const payloads = renderSlack(message, { mention: '<!here>' });
      expect(payloads.length).toBeGreaterThan(0);
      for (const payload of payloads) {
        expect(withinLimits(payload)).toBe(true);
        expect(payload.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
        expect(JSON.stringify(payload)).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
      }
    },
  );

  it.each(cases)(
    'Teams ($label): every card within the byte limit, no lone surrogate in the JSON',
    ({ message }) => {
      const payloads = renderTeams(message, { deliveryId: 'd-1' });
      expect(payloads.length).toBeGreaterThan(0);
      for (const payload of payloads) {
        expect(jsonBytes(payload)).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
        expect(JSON.stringify(payload)).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
      }
    },
  );

  it.each(cases)('e-mail ($label): a sane subject, no lone surrogate anywhere', ({ message }) => {
    const email = renderEmail(message, { timezone: 'UTC' });
    expect(Array.from(email.subject).length).toBeLessThanOrEqual(200);
    expect(email.subject).not.toMatch(/[\r\n]/);
    for (const part of [email.subject, email.text, email.html]) expect(part).not.toMatch(LONE_SURROGATE);
  });

  it.each(cases)('webhook and console ($label): JSON that reads back', ({ message }) => {
    const body = JSON.parse(renderWebhookBody('hook', message, new Date(0)));
    expect(body.type).toBe(message.type);
    const line = renderConsoleLine('stdout', message, 'dlv-1');
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line).type).toBe(message.type);
  });

  it('Slack coalesce: the chosen message is one payload', () => {
    const issuer = { id: 'ISS-9', name: issuerName };
    const groups = Array.from({ length: 60 }, (_, i) => ({
      issuer,
      events: [makeEvent({ id: `e-${i}`, holder, issuer })],
    }));
    const k = coalesceSlack(groups);
    expect(k).toBeGreaterThan(1);
    expect(renderSlack({ type: 'batch', groups: groups.slice(0, k) })).toHaveLength(1);
  });
});

// Control and bidi characters, as the sets displayText removes: C0, DEL and C1, embeddings and overrides,
// isolates, LRM/RLM/ALM, and the line separators U+2028/U+2029.
const INVISIBLE = /[\p{Cc}\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029]/u;
const FORGED = 'Evil\n:new: *Fake Capital* opened';
const EVENT_LINE = /^(:new:|:arrow_up:|:arrow_down:|:white_circle:) /;

describe('displayText', () => {
  it.each([
    ['a line break becomes a space', 'Evil\n:new: *Fake*', 'Evil :new: *Fake*'],
    ['CR LF and tabs become one space', 'Alpha\r\n\tBeta', 'Alpha Beta'],
    ['NEL, LINE and PARAGRAPH SEPARATOR become spaces', 'A\u0085B\u2028C\u2029D', 'A B C D'],
    ['other C0 controls vanish (ESC, NUL, BEL)', 'Red\u001b[31mFund\u0000\u0007', 'Red[31mFund'],
    ['DEL and C1 controls vanish (CSI U+009B)', 'A\u007fB\u009b31mC', 'AB31mC'],
    ['a right-to-left override vanishes', 'Fund \u202Eelpmaxe', 'Fund elpmaxe'],
    [
      'embeddings, isolates and marks vanish',
      '\u202A\u202B\u202C\u202DA\u2066\u2067\u2068\u2069B\u200E\u200F\u061C',
      'AB',
    ],
    ['runs of whitespace collapse and the ends are trimmed', '  Marshall \u00a0  Wace  ', 'Marshall Wace'],
    ['a lone surrogate becomes U+FFFD', 'Fund \uD800 plc', 'Fund \uFFFD plc'],
    ['a name of nothing but controls is empty', '\u202E\n\t', ''],
    ['ordinary names are untouched', 'Société Générale — Ø 株式会社 👍', 'Société Générale — Ø 株式会社 👍'],
  ])('%s', (_name, raw, shown) => {
    expect(displayText(raw)).toBe(shown);
  });
});

const forging = [
  { name: 'a holder with a newline forging a Slack line', holder: FORGED, issuerName: 'Acme plc' },
  {
    name: 'a holder with a right-to-left override',
    holder: 'Fund \u202E%5.0 ta tuc',
    issuerName: 'Acme plc',
  },
  {
    name: 'a holder with C1 and escape sequences',
    holder: 'Red\u001b[31m\u009b2J Fund',
    issuerName: 'Acme plc',
  },
  { name: 'an issuer with CR LF and an isolate', holder: 'Marshall Wace', issuerName: 'Acme\r\n\u2067plc' },
];

describe.each(forging)('$name', ({ holder, issuerName }) => {
  const cases = messages(holder, issuerName);

  it.each(cases)('Slack ($label): one line per event, no control or bidi character', ({ message }) => {
    const before = structuredClone(message);
    const payloads = renderSlack(message);
    const events = message.type === 'batch' ? message.groups.flatMap((g) => g.events) : [];
    const expected =
      message.type === 'batch' ? events.length : 'events' in message ? message.events.length : 0;
    const sections = payloads
      .flatMap((p) => p.blocks)
      .flatMap((b) => (b.type === 'section' ? [b.text.text] : []));
    const eventLines = sections.flatMap((text) => text.split('\n')).filter((line) => EVENT_LINE.test(line));
    if (message.type !== 'digest') expect(eventLines).toHaveLength(expected);
    for (const text of [...sections, ...payloads.map((p) => p.text)]) {
      expect(text).not.toMatch(/(^|\n):new: \*Fake/);
      // The renderer's own line breaks are the only control characters left.
      expect(text.replaceAll('\n', '')).not.toMatch(INVISIBLE);
    }
    for (const payload of payloads)
      expect(JSON.stringify(payload)).not.toMatch(/\\u00(1b|9b)|\\u202e|\\u2067|\\r/i);
    // Rendering never changes the message: the outbox, the event log and holderKey keep the raw value.
    expect(message).toEqual(before);
  });

  it.each(cases)('Teams ($label): one line per holder, no control or bidi character', ({ message }) => {
    const events = message.type === 'batch' ? message.groups.flatMap((g) => g.events) : [];
    const expected =
      message.type === 'batch' ? events.length : 'events' in message ? message.events.length : 0;
    const texts = renderTeams(message).flatMap((p) => p.attachments[0].content.body.map((b) => b.text));
    // Every holder here is a different one: a line each, none merged into a sequence.
    expect(texts.filter((text) => /^(🆕|⬆️|⬇️|⚪|↔️) /u.test(text))).toHaveLength(expected);
    for (const text of texts) expect(text).not.toMatch(INVISIBLE);
  });

  it.each(cases)('e-mail ($label): no control or bidi character in subject, text or HTML', ({ message }) => {
    const email = renderEmail(message, { timezone: 'UTC' });
    expect(email.subject).not.toMatch(INVISIBLE);
    for (const part of [email.text, email.html]) {
      expect(part.replaceAll('\n', '')).not.toMatch(INVISIBLE);
      expect(part).not.toMatch(/\n:new: \*Fake/);
    }
  });

  it.each(cases)(
    'webhook and console ($label): the raw name as data, no raw control in the bytes',
    ({ message }) => {
      const bodies = [
        renderWebhookBody('hook', message, new Date(0)),
        renderConsoleLine('stdout', message, 'dlv-1').slice(0, -1),
      ];
      for (const body of bodies) {
        expect(body).not.toMatch(INVISIBLE);
        const parsed = JSON.parse(body);
        const first = parsed.type === 'batch' ? parsed.groups[1].events[0] : parsed.events[0];
        expect(first.holder).toBe(holder);
        expect(first.issuer.name).toBe(issuerName);
        expect(first.holderKey).toBe('marshallwace');
      }
    },
  );
});

describe('notices', () => {
  const notice = {
    type: 'notice' as const,
    key: 'watchlist',
    severity: 'warning' as const,
    title: 'Issuer gone:\nAcme \u202Eplc',
    text: 'first problem: Acme\r\u202Eplc\nsecond problem',
  };

  it('keep their own line breaks, each line cleaned; the title is one line', () => {
    expect(displayNotice(notice)).toMatchObject({
      title: 'Issuer gone: Acme plc',
      text: 'first problem: Acme plc\nsecond problem',
    });
  });

  it('are display text in every channel, the JSON ones included', () => {
    const slack = JSON.stringify(renderSlack(notice));
    expect(slack).not.toMatch(/\\u202e|\\r/i);
    const hook = JSON.parse(renderWebhookBody('hook', notice, new Date(0)));
    expect(hook).toMatchObject({
      title: 'Issuer gone: Acme plc',
      text: 'first problem: Acme plc\nsecond problem',
    });
    expect(renderEmail(notice, { timezone: 'UTC' }).subject).toContain('Issuer gone: Acme plc');
  });
});

describe('stringifyVisible', () => {
  it('writes control and bidi characters as escapes and parses back to the same value', () => {
    const value = { holder: 'A\u202eB\u0085C\u009bD\u2028E\n\u001b', n: 1 };
    const text = stringifyVisible(value);
    expect(text).not.toMatch(INVISIBLE);
    expect(text).toContain('\\u202e');
    expect(JSON.parse(text)).toEqual(value);
  });
});
