import type { ChannelMemory } from '../../src/channels/types.js';

/** The memory of a channel kind that keeps none (every kind but slack-app): any use fails the test. */
export const unusedMemory: ChannelMemory = {
  get: async () => {
    throw new Error('this channel kind keeps no memory');
  },
  set: async () => {
    throw new Error('this channel kind keeps no memory');
  },
};
