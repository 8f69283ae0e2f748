import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { consoleChannelFactory, renderConsoleLine } from '../../../src/channels/console/index.js';
import type { BatchMessage, Message } from '../../../src/channels/types.js';
import { channelSchema } from '../../../src/config/schema.js';
import { unusedMemory } from '../../helpers/channel-memory.js';
import { ACME, makeEvent } from '../email/fixtures.js';

const batch: BatchMessage = {
  type: 'batch',
  groups: [
    { issuer: ACME, events: [makeEvent()] },
    { issuer: { id: 'ISS-2', name: 'Beta' }, events: [makeEvent({ id: 'evt-2' })] },
  ],
};

function consoleChannel(lines: string[]) {
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  const config = channelSchema.parse({ kind: 'console', name: 'stdout' });
  if (config.kind !== 'console') throw new Error('expected a console config');
  return consoleChannelFactory(out)(config, { now: () => new Date(0), memory: unusedMemory });
}

const lineCases: { name: string; message: Message; deliveryId?: string; expected: object }[] = [
  {
    name: 'a batch, with its delivery id',
    message: batch,
    deliveryId: 'dlv-1',
    expected: { channel: 'stdout', deliveryId: 'dlv-1', ...batch },
  },
  {
    name: 'a test message, without a delivery',
    message: { type: 'test', channel: 'stdout', sentAt: '2024-11-20T07:32:00.000Z' },
    expected: { channel: 'stdout', type: 'test', sentAt: '2024-11-20T07:32:00.000Z' },
  },
];

describe('console channel', () => {
  it.each(lineCases)('$name: one JSON line', ({ message, deliveryId, expected }) => {
    const line = renderConsoleLine('stdout', message, deliveryId);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual(expected);
  });

  it('send writes the line with the delivery id', async () => {
    const lines: string[] = [];
    await consoleChannel(lines).send(batch, { partsSent: 0, deliveryId: 'dlv-7' });
    expect(lines).toEqual([renderConsoleLine('stdout', batch, 'dlv-7')]);
  });

  it('coalesces every group', () => {
    const groups = Array.from({ length: 300 }, (_, i) => ({
      issuer: { id: `ISS-${i}`, name: `Issuer ${i}` },
      events: [makeEvent()],
    }));
    expect(consoleChannel([]).coalesce(groups)).toBe(300);
    expect(consoleChannel([]).coalesce([])).toBe(0);
  });
});
