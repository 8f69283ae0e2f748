/** One problem in a config file, at a dotted key path such as `channels[0].webhookURL`. */
export interface ConfigIssue {
  path: string;
  message: string;
  /** The environment variable that was not set, when that is the problem. */
  variable?: string;
  /** The line of the config file the problem is on (1-based), when it is known: unknown keys, bad values, YAML errors. */
  line?: number;
}

/**
 * One issue as a line: `file:12: channels[0].fliter: unknown key (did you mean filter?)` (the file and
 * line first, as compilers print them, so an editor can jump there); a message of several lines (a YAML
 * code frame) keeps them, indented under it.
 */
export function formatIssue(source: string, issue: ConfigIssue): string {
  const at = issue.line === undefined ? '' : `${source}:${issue.line}: `;
  const text = `${at}${issue.path ? `${issue.path}: ` : ''}${issue.message}`;
  const [first, ...rest] = text.split('\n');
  return [first, ...rest.map((line) => (line === '' ? '' : `    ${line}`))].join('\n');
}

/** Said once under a list naming unset variables: where shortwatch looks for them, and where it does not. */
export const ENV_HINT =
  'shortwatch reads variables from its own environment only: a .env file is read by docker compose, not by shortwatch (in a shell: set -a; . ./.env; set +a).';

/** The config cannot be used; every problem is listed with its key path. The CLI exits 2 on it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(
    readonly source: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    const hint = issues.some((i) => i.variable !== undefined) ? `\n${ENV_HINT}` : '';
    super(
      `invalid config ${source}:\n${issues.map((i) => `  - ${formatIssue(source, i)}`).join('\n')}${hint}`,
    );
  }
}

/** Type guard for {@link ConfigError}. */
export function isConfigError(error: unknown): error is ConfigError {
  return error instanceof ConfigError;
}

/** Renders a key path the way a person reads YAML: `channels[0].filter.minValue`. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}
