/** One problem in a config file, at a dotted key path such as `channels[0].webhookURL`. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** The config cannot be used; every problem is listed with its key path. The CLI exits 2 on it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(
    readonly source: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    super(
      `invalid config ${source}:\n${issues.map((i) => `  - ${i.path ? `${i.path}: ` : ''}${i.message}`).join('\n')}`,
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
