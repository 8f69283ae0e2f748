import { describe, expect, it } from 'vitest';
import { describeFailure, EXIT } from '../../src/cli/exit.js';
import { type ConfigIssue, isConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/load.js';

// A deployment without the commercial API: `sources` alone, no `upstream`.

const ENV = { SHORTWATCH_API_KEY: 'sk-test-key-0001' };
const UPSTREAM = 'upstream: { baseUrl: https://shorts.example.com/api, apiKey: sk-test-key-0001 }';
const SOURCE =
  'sources: [{ name: fca, kind: uk-ansp-current, url: https://www.fca.org.uk/publication/documents/aggregated-current-net-short-positions.csv }]';
const CHANNEL = 'channels: [{ name: desk, kind: slack, webhookUrl: https://hooks.slack.invalid/x }]';
const NOTHING_TO_WATCH: ConfigIssue = {
  path: 'upstream',
  message: 'nothing to watch: set upstream or sources',
};

function parse(...lines: string[]) {
  return parseConfig(lines.join('\n'), 'test.yaml', ENV);
}

/** The issues a config is rejected with; fails the test when it is accepted. */
function issuesOf(...lines: string[]): readonly ConfigIssue[] {
  try {
    parse(...lines);
  } catch (error) {
    if (isConfigError(error)) return error.issues;
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('a config without upstream', () => {
  it.each([
    ['sources alone', [SOURCE, CHANNEL]],
    ['sources and an empty watchlist', [SOURCE, 'watchlist: []', CHANNEL]],
    ['sources and no channel', [SOURCE]],
    [
      'sources and a channel filter naming register issuers (ISIN, name)',
      [
        SOURCE,
        'channels: [{ name: desk, kind: slack, webhookUrl: https://hooks.slack.invalid/x, filter: { issuers: [GB00B1VQ6H25, "Wood Group"] } }]',
      ],
    ],
  ])('is valid with %s', (_, lines) => {
    const config = parse(...lines);
    expect(config.upstream).toBeUndefined();
    expect(config.watchlist).toEqual([]);
    expect(config.sources.map((s) => s.name)).toEqual(['fca']);
  });

  it.each<[string, string[], ConfigIssue]>([
    ['neither upstream nor sources', [CHANNEL], NOTHING_TO_WATCH],
    ['an empty file', [], NOTHING_TO_WATCH],
    ['an empty sources list', ['sources: []', CHANNEL], NOTHING_TO_WATCH],
    [
      'a watchlist of ids',
      [SOURCE, 'watchlist: [{ id: ISS-1 }]', CHANNEL],
      {
        path: 'upstream',
        message:
          "is required by `watchlist` (its issuers are polled through the upstream API); without an upstream, leave `watchlist` out and name issuers in each source's `watchlist`",
      },
    ],
  ])('is refused, naming upstream, with %s', (_, lines, issue) => {
    expect(issuesOf(...lines)).toContainEqual(issue);
  });

  it('is refused with `watchlist: all`, naming upstream', () => {
    const issues = issuesOf(SOURCE, 'watchlist: all');
    expect(issues.map((i) => i.path)).toEqual(['upstream']);
    expect(issues[0]?.message).toMatch(/^is required by `watchlist`/);
  });

  it('with nothing to watch makes the CLI exit 2 with the message', () => {
    let caught: unknown;
    try {
      parse(CHANNEL);
    } catch (error) {
      caught = error;
    }
    const failure = describeFailure(caught);
    expect(failure.exitCode).toBe(EXIT.usage);
    expect(failure.message).toContain('upstream: nothing to watch: set upstream or sources');
  });
});

describe('a config with upstream', () => {
  it.each([
    ['and no sources', [UPSTREAM, 'watchlist: [{ id: ISS-1 }]']],
    ['and an empty watchlist', [UPSTREAM]],
    ['and sources', [UPSTREAM, SOURCE, 'watchlist: all']],
  ])('is valid %s', (_, lines) => {
    expect(parse(...lines).upstream?.baseUrl).toBe('https://shorts.example.com/api');
  });
});
