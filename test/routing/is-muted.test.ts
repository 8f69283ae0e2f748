import { describe, expect, it } from 'vitest';
import { channelSchema } from '../../src/config/schema.js';
import { isMuted, type Mute } from '../../src/routing/mutes.js';
import { makeEvent } from './events.js';

const desk = channelSchema.parse({ kind: 'console', name: 'desk' });
const daily = channelSchema.parse({ kind: 'console', name: 'daily', mode: 'digest', schedule: '0 8 * * *' });

function mute(fields: Partial<Mute> & Pick<Mute, 'scope' | 'target'>): Mute {
  return { key: 'k', until: 1, digests: false, createdAt: 0, ...fields };
}

describe('isMuted', () => {
  it.each([
    {
      name: 'holder by spelling variant',
      mutes: [mute({ scope: 'holder', target: 'marshall-wace llp' })],
      on: desk,
      hit: 0,
    },
    {
      name: 'holder by key prefix',
      mutes: [mute({ scope: 'holder', target: 'Marshall Wace' })],
      on: desk,
      hit: 0,
    },
    { name: 'other holder', mutes: [mute({ scope: 'holder', target: 'Citadel' })], on: desk, hit: undefined },
    { name: 'issuer by exact id', mutes: [mute({ scope: 'issuer', target: 'ISS-ACME' })], on: desk, hit: 0 },
    {
      name: 'issuer by name, spaces and case ignored',
      mutes: [mute({ scope: 'issuer', target: ' ACME plc' })],
      on: desk,
      hit: 0,
    },
    {
      name: 'issuer name prefix is not enough',
      mutes: [mute({ scope: 'issuer', target: 'Acme' })],
      on: desk,
      hit: undefined,
    },
    {
      name: 'other channel',
      mutes: [mute({ scope: 'issuer', target: 'ISS-ACME', channel: 'night' })],
      on: desk,
      hit: undefined,
    },
    {
      name: 'this channel',
      mutes: [mute({ scope: 'issuer', target: 'ISS-ACME', channel: 'desk' })],
      on: desk,
      hit: 0,
    },
    {
      name: 'digest ignores a mute without digests',
      mutes: [mute({ scope: 'issuer', target: 'ISS-ACME' })],
      on: daily,
      hit: undefined,
    },
    {
      name: 'digest picks the mute with digests: true',
      mutes: [
        mute({ scope: 'issuer', target: 'ISS-ACME' }),
        mute({ scope: 'holder', target: 'Marshall Wace', digests: true }),
      ],
      on: daily,
      hit: 1,
    },
  ])('$name', ({ mutes, on, hit }) => {
    expect(isMuted(makeEvent(), on, mutes)).toBe(hit === undefined ? undefined : mutes[hit]);
  });
});
