import { type ChannelConfig, configSchema } from '../../src/config/schema.js';

/**
 * A realistic channel set, parsed by the real schema: a Slack desk feed of every move at or above 0.5%,
 * an immediate email for positions of at least 1% moving by 0.1 point or more, and a daily email digest.
 */
export function benchChannels(): ChannelConfig[] {
  const config = configSchema.parse({
    upstream: { baseUrl: 'https://sandbox.invalid', apiKey: 'bench' },
    channels: [
      {
        name: 'desk',
        kind: 'slack',
        webhookUrl: 'https://hooks.slack.com/services/T000/B000/bench',
        filter: { minValue: 0.5 },
      },
      {
        name: 'alerts',
        kind: 'email',
        host: 'smtp.example.test',
        from: 'shortwatch@example.test',
        to: ['pm@example.test'],
        filter: { minValue: 1, minDelta: 0.1 },
      },
      {
        name: 'daily',
        kind: 'email',
        mode: 'digest',
        schedule: '30 7 * * 1-5',
        timezone: 'Europe/London',
        host: 'smtp.example.test',
        from: 'shortwatch@example.test',
        to: ['heads@example.test'],
      },
    ],
  });
  return config.channels;
}
