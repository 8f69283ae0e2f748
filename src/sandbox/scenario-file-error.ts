/** A scenario file cannot be read or does not match the format; every problem is listed. */
export class ScenarioFileError extends Error {
  override readonly name = 'ScenarioFileError';

  constructor(
    readonly path: string,
    readonly issues: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(`invalid scenario file ${path}:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`, options);
  }
}

/** Type guard for {@link ScenarioFileError}. */
export function isScenarioFileError(error: unknown): error is ScenarioFileError {
  return error instanceof ScenarioFileError;
}
