import { diffActive, holderKeyOf } from "./holder-diff.js";
import { QUIRKS } from "./quirks.js";
import { createScenario, Scenario } from "./scenario.js";
import { loadScenarioFile, parseScenarioFile, scenarioFromFile } from "./scenario-file.js";
import { isScenarioFileError, ScenarioFileError } from "./scenario-file-error.js";
import {
  DEFAULT_NO_API_KEY,
  DEFAULT_SANDBOX_KEY,
  startSandbox
} from "./server.js";
import { isUnknownIssuerError, UnknownIssuerError } from "./unknown-issuer-error.js";
export {
  DEFAULT_NO_API_KEY,
  DEFAULT_SANDBOX_KEY,
  QUIRKS,
  Scenario,
  ScenarioFileError,
  UnknownIssuerError,
  createScenario,
  diffActive,
  holderKeyOf,
  isScenarioFileError,
  isUnknownIssuerError,
  loadScenarioFile,
  parseScenarioFile,
  scenarioFromFile,
  startSandbox
};
