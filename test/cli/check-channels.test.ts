import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeChannelDuty } from '../../src/cli/commands/check-channels.js';
import { parseConfig } from '../../src/config/load.js';

const example = readFileSync(new URL('../../config/example.yaml', import.meta.url), 'utf8');
const env = {
  SHORTWATCH_UPSTREAM_URL: 'http://127.0.0.1:8080',
  SHORTWATCH_API_KEY: 'k',
  SLACK_WEBHOOK_URL: 'https://hooks.example.test/x',
  SMTP_URL: 'smtp://127.0.0.1:2525',
};

function duties(text: string): string[][] {
  const config = parseConfig(text, 'example.yaml', env);
  return config.channels.map((channel) => [channel.name, describeChannelDuty(channel, config)]);
}

describe('what `check` says each channel will get', () => {
  it("the example's ops channel gets notices only, every other channel its filter's events", () => {
    expect(duties(example)).toEqual([
      ['desk', 'opened/increased/decreased/closed only; positions of 0.5% or more, sent at once'],
      [
        'holders-alert',
        'holders D. E. Shaw, Oxford Asset Management, Northcliff & Reyes Capital; changes crossing 0.5%, 1%, 2%, sent at once, held in quiet hours',
      ],
      ['daily-digest', 'a digest on "30 7 * * 1-5" (Europe/London) of issuers ISS-0001, Borealis Mining plc'],
      ['ops', 'operator notices only, no events (ops.channel)'],
    ]);
  });

  it('without an ops channel, the immediate people channels carry the critical notices too', () => {
    const withoutOps = example.replace(/^ops:.*\n {2}channel: ops.*$/m, 'ops: {}');
    const told = new Map(duties(withoutOps).map(([name, duty]) => [name, duty]));
    expect(told.get('desk')).toMatch(/; critical notices too \(no ops\.channel\)$/);
    expect(told.get('daily-digest')).not.toMatch(/notices/);
  });
});
