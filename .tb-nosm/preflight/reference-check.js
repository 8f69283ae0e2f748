import { ConfigError } from "../config/config-error.js";
import { resolveWatchlist } from "../jobs/watchlist.js";
import { filterHolderReview } from "./filter-references.js";
import { filtersNameHolders, gatherHolders, unjudgedSources } from "./holder-sources.js";
import { directoryIssues, needsDirectory } from "./preflight.js";
async function checkReferences(config, source, from) {
  const cached = config.upstream === void 0 ? null : (await from.directory.load())?.issuers ?? null;
  let checked = cached === null ? void 0 : directoryIssues(config, cached);
  let fetched;
  if (needsDirectory(config) && checked?.issues.length !== 0) {
    fetched = await fetchDirectory(from);
    if (fetched) checked = directoryIssues(config, fetched.data);
  }
  const watched = checked?.watched ?? resolveWatchlist(config.watchlist, null).watched;
  const holders = await reviewHolders(config, from, watched);
  const issues = [...checked?.issues ?? [], ...holders.issues];
  if (issues.length > 0) throw new ConfigError(source, issues);
  for (const warning of holders.warnings) from.logger.warn(`${warning.path}: ${warning.message}`);
  return { watched, directory: fetched?.data ?? cached, ...fetched ? { fetched } : {} };
}
async function reviewHolders(config, from, watched) {
  if (!filtersNameHolders(config)) return { issues: [], warnings: [] };
  const ids = watched.map((issuer) => issuer.id);
  const knowledge = await gatherHolders(config, from, ids, { readMissing: from.readRegister });
  const review = filterHolderReview(config, knowledge.holders);
  const gaps = unjudgedSources(config, knowledge);
  if (gaps !== void 0) {
    const what = knowledge.holders.length === 0 ? "not checked" : "not checked against";
    review.warnings.push({ path: "channels[].filter", message: `holders ${what}: ${gaps}` });
  }
  return review;
}
async function fetchDirectory(from) {
  try {
    return await from.listIssuers();
  } catch (error) {
    from.logger.warn({ err: error }, "could not fetch the issuer directory to check the config");
    return void 0;
  }
}
export {
  checkReferences
};
