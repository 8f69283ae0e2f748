import { jsonBytes, TEAMS_MAX_BYTES } from "./card.js";
import { coalesceTeams } from "./coalesce.js";
import { escapeTeams } from "./escape.js";
import { renderTeams, renderTeamsParts } from "./render.js";
import {
  createTeamsChannel,
  createTeamsSender
} from "./send.js";
export {
  TEAMS_MAX_BYTES,
  coalesceTeams,
  createTeamsChannel,
  createTeamsSender,
  escapeTeams,
  jsonBytes,
  renderTeams,
  renderTeamsParts
};
