export type { FaultSpec, Faults, RateLimitFaultOptions } from './faults.js';
export { diffActive, holderKeyOf } from './holder-diff.js';
export { QUIRKS, type Quirk } from './quirks.js';
export type { LimitWindow } from './rate-limiter.js';
export { createScenario, Scenario } from './scenario.js';
export { loadScenarioFile, parseScenarioFile, scenarioFromFile } from './scenario-file.js';
export { isScenarioFileError, ScenarioFileError } from './scenario-file-error.js';
export type { ScenarioFile } from './scenario-file-schema.js';
export type {
  Publication,
  PublicationOptions,
  ScenarioChange,
  ScenarioChangeKind,
  ScenarioOptions,
} from './scenario-types.js';
export {
  DEFAULT_NO_API_KEY,
  DEFAULT_SANDBOX_KEY,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from './server.js';
export type { RequestFilter, RequestRecord, RequestStats, SandboxOperation } from './stats.js';
export { isUnknownIssuerError, UnknownIssuerError } from './unknown-issuer-error.js';
