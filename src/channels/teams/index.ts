export type { AdaptiveCard, TeamsPayload, TextBlock } from './card.js';
export { jsonBytes, TEAMS_MAX_BYTES } from './card.js';
export { coalesceTeams } from './coalesce.js';
export { escapeTeams } from './escape.js';
export type { TeamsPart } from './pack.js';
export { renderTeams, renderTeamsParts, type TeamsRenderOptions } from './render.js';
export {
  createTeamsChannel,
  createTeamsSender,
  type TeamsChannelConfig,
  type TeamsSender,
  type TeamsSenderDeps,
} from './send.js';
