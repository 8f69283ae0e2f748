import { describe, expect, it } from 'vitest';
import { readSubscriberFile, subscribersCsv } from '../../src/cli/subscriber-file.js';
import { subscriberInputSchema, subscriberSchema } from '../../src/routing/subscriber.js';

// An import's personal routes: a webhook and a Slack user per row, checked as the store checks them, and
// an export that an import reads back with them.

const CSV = [
  'name,email,webhook,slackUser,issuers',
  'Ann Trader,ann@desk.example,https://hooks.desk.example/ann,U0ANN0001,Fugro N.V.',
  'Bo Lund,bo@desk.example,,bo.slack@desk.example,ASML',
  'Cy Plain,cy@desk.example,http://hooks.desk.example/cy,,Adyen',
  'Di Bad,di@desk.example,,@nobody,Adyen',
].join('\n');

describe('subscriber files: webhook and slackUser columns', () => {
  it('reads each row into what the store checks, and refuses a plain-http webhook or a malformed user', () => {
    const rows = readSubscriberFile(CSV, 'csv').map(({ row, input }) => ({
      row,
      parsed: subscriberInputSchema.safeParse(input),
    }));
    expect(rows[0]?.parsed.data).toMatchObject({
      webhook: 'https://hooks.desk.example/ann',
      slackUser: 'U0ANN0001',
    });
    expect(rows[1]?.parsed.data?.webhook).toBeUndefined();
    expect(rows[1]?.parsed.data?.slackUser).toBe('bo.slack@desk.example');
    expect(rows[2]?.parsed.error?.issues[0]).toMatchObject({
      path: ['webhook'],
      message: 'must be https:// unless it is a loopback address',
    });
    expect(rows[3]?.parsed.error?.issues[0]?.path).toEqual(['slackUser']);
  });

  it('exports them in the columns an import reads back', () => {
    const ann = subscriberSchema.parse({
      id: 'ann00001',
      name: 'Ann Trader',
      email: 'ann@desk.example',
      webhook: 'https://hooks.desk.example/ann',
      slackUser: 'U0ANN0001',
      version: 1,
      createdAt: '2026-11-01T00:00:00Z',
      updatedAt: '2026-11-01T00:00:00Z',
    });
    const [row] = readSubscriberFile(subscribersCsv([ann]), 'csv');
    expect(subscriberInputSchema.parse(row?.input)).toMatchObject({
      webhook: 'https://hooks.desk.example/ann',
      slackUser: 'U0ANN0001',
    });
  });
});
