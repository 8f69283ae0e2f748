import { filterHolderReview } from "../../preflight/filter-references.js";
import {
  filtersNameHolders,
  gatherHolders,
  unjudgedSources
} from "../../preflight/holder-sources.js";
async function checkHolders(config, stores, at, out) {
  if (!filtersNameHolders(config)) return;
  const ids = at.watched.map((issuer) => issuer.id);
  const knowledge = await gatherHolders(config, stores, ids, { fresh: at.reads });
  const gaps = unjudgedSources(config, knowledge);
  if (knowledge.holders.length === 0) {
    out.warn(`filter holders not checked: nothing names a holder yet: ${gaps ?? "no source"}`);
    return;
  }
  const { issues, warnings } = filterHolderReview(config, knowledge.holders);
  for (const issue of issues) out.problem(issue);
  for (const warning of warnings) out.warn(`${warning.path}: ${warning.message}`);
  if (gaps !== void 0) out.warn(`filter holders not checked against ${gaps}`);
  if (issues.length + warnings.length === 0)
    out.ok(
      `filter holders: each names one of the ${knowledge.holders.length} holders known (${holderSources(knowledge)})`
    );
}
function holderSources(knowledge) {
  const parts = [];
  if (knowledge.fromUpstream > 0) parts.push("snapshots and event log");
  if (knowledge.registers.length > 0) parts.push(`register ${knowledge.registers.join(", ")}`);
  return parts.join(", ");
}
export {
  checkHolders
};
