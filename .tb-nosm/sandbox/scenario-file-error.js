class ScenarioFileError extends Error {
  constructor(path, issues, options) {
    super(`invalid scenario file ${path}:
${issues.map((issue) => `  - ${issue}`).join("\n")}`, options);
    this.path = path;
    this.issues = issues;
  }
  path;
  issues;
  name = "ScenarioFileError";
}
function isScenarioFileError(error) {
  return error instanceof ScenarioFileError;
}
export {
  ScenarioFileError,
  isScenarioFileError
};
