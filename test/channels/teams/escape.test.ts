import { describe, expect, it } from 'vitest';
import { escapeTeams, jsonBytes, renderTeams, TEAMS_MAX_BYTES } from '../../../src/channels/teams/index.js';
import type { IssuerEvents, Message } from '../../../src/channels/types.js';
import { ACME, makeEvent } from '../email/fixtures.js';

describe('escapeTeams', () => {
  it.each([
    ['emphasis and a link', '*x* [link](http://evil)', '\\*x\\* \\[link\\](http://evil)'],
    [
      'bold and strike-through',
      '**Big** ~~gone~~ __under__',
      '\\*\\*Big\\*\\* \\~\\~gone\\~\\~ \\_\\_under\\_\\_',
    ],
    ['a Teams mention tag', '<at>General</at>', '\\<at\\>General\\</at\\>'],
    ['a character reference', 'AT&amp;T &lt;', 'AT\\&amp;T \\&lt;'],
    ['code', 'a `b` c', 'a \\`b\\` c'],
    [
      'a date function Teams would substitute',
      '{{DATE(2024-05-02T07:31:00Z, SHORT)}}',
      '\\{\\{DATE(2024-05-02T07:31:00Z, SHORT)\\}\\}',
    ],
    ['a backslash of its own', 'C:\\funds\\*', 'C:\\\\funds\\\\\\*'],
    ['a bullet at the start', '- Fake line', '\\- Fake line'],
    ['a plus bullet at the start', '+ Fake', '\\+ Fake'],
    ['a heading at the start', '# Big', '\\# Big'],
    ['a numbered item at the start', '1. FC Example', '1\\. FC Example'],
    ['a numbered item with a parenthesis', '12) Item', '12\\) Item'],
    ['a hyphen inside a name is left alone', 'Rolls-Royce plc', 'Rolls-Royce plc'],
    ['a leading number that is no list', '3i Group plc', '3i Group plc'],
    ['ordinary punctuation is left alone', 'D. E. Shaw (UK) Ltd.!', 'D. E. Shaw (UK) Ltd.!'],
    ['a lone surrogate becomes U+FFFD', 'Fund \uD800 plc', 'Fund \uFFFD plc'],
    ['non-Latin text is untouched', 'Société Générale — 株式会社 👍', 'Société Générale — 株式会社 👍'],
  ])('%s', (_name, raw, escaped) => {
    expect(escapeTeams(raw)).toBe(escaped);
  });
});

/** Every TextBlock text of every card. */
function texts(message: Message): string[] {
  return renderTeams(message, { deliveryId: 'd-1' }).flatMap((payload) =>
    payload.attachments[0].content.body.map((block) => block.text),
  );
}

const HOSTILE = '*x* [link](http://evil) <at>all</at> {{DATE(2024-05-02T07:31:00Z)}}';
const ESCAPED = '\\*x\\* \\[link\\](http://evil) \\<at\\>all\\</at\\> \\{\\{DATE(2024-05-02T07:31:00Z)\\}\\}';

describe('hostile names in Teams cards', () => {
  const issuer = { id: 'ISS-9', name: HOSTILE };
  const hostile: IssuerEvents = { issuer, events: [makeEvent({ holder: HOSTILE, issuer })] };
  const plain: IssuerEvents = { issuer: ACME, events: [makeEvent({ id: 'evt-3' })] };
  const period = { from: '2024-11-20T07:30:00.000Z', to: '2024-11-21T07:30:00.000Z', timezone: 'UTC' };

  it.each<{ label: string; message: Message }>([
    { label: 'events', message: { type: 'events', ...hostile } },
    { label: 'batch', message: { type: 'batch', groups: [plain, hostile] } },
    { label: 'digest', message: { type: 'digest', period, events: hostile.events } },
  ])('$label: names show as escaped text, never as markup', ({ message }) => {
    const all = texts(message);
    expect(all.filter((text) => text.includes(ESCAPED)).length).toBeGreaterThan(0);
    for (const text of all) {
      // Every markup character of the name is escaped wherever the name appears.
      expect(text.replaceAll(ESCAPED, '')).not.toMatch(/\[link\]|<at>|\{\{DATE/);
    }
  });

  it('a holder with a newline cannot forge a second event line', () => {
    const issuerEvents = {
      issuer: ACME,
      events: [makeEvent({ holder: 'Evil\n🆕 **Fake Capital** opened' })],
    };
    const lines = texts({ type: 'events', ...issuerEvents });
    expect(lines.filter((text) => /^(🆕|⬆️|⬇️|⚪) /.test(text))).toEqual([
      '⬆️ **Evil 🆕 \\*\\*Fake Capital\\*\\* opened** raised 1.11% → **1.23%** (+0.12 pp)',
    ]);
  });

  it('bidi and control characters never reach the card', () => {
    const message: Message = {
      type: 'events',
      issuer: { id: 'ISS-1', name: 'Acme\r\n\u2067plc' },
      events: [makeEvent({ holder: 'Fund \u202E%5.0 \u001b[31m\u009b2J' })],
    };
    const json = JSON.stringify(renderTeams(message));
    expect(json).not.toMatch(/\\u00(1b|9b)|\\r|\\n/i);
    expect(json).not.toMatch(/[\u202e\u2067]/);
  });

  it.each([
    ['a 5,000-character holder', 'X'.repeat(5000), 'Acme plc'],
    ['a 5,000-character issuer of 4-byte characters', 'Fund', '𝕏'.repeat(5000)],
    ['a holder of 5,000 markup characters', '*'.repeat(5000), 'Acme plc'],
    ['a holder with a lone surrogate', 'Fund \uD800 plc', 'Acme plc'],
    ['a 5,000-character issuer starting with a lone surrogate', 'Fund', `\uD800${'Y'.repeat(5000)}`],
  ])('%s: one card under the limit, no lone surrogate', (_name, holder, issuerName) => {
    const issuer = { id: 'ISS-9', name: issuerName };
    const message: Message = { type: 'events', issuer, events: [makeEvent({ holder, issuer })] };
    const payloads = renderTeams(message, { deliveryId: 'd-1' });
    expect(payloads).toHaveLength(1);
    for (const payload of payloads) {
      expect(jsonBytes(payload)).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
      expect(JSON.stringify(payload)).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
    }
    // Names past 600 code points are shortened, never the other way round.
    const long = Array.from(holder).length > 600 || Array.from(issuerName).length > 600;
    expect(JSON.stringify(payloads).includes('…')).toBe(long);
  });
});
