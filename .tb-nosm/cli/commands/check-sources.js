import { isWatched } from "../../jobs/registers/register-diff.js";
import { closestNames } from "../../jobs/watchlist.js";
import { readSource } from "../../sources/read-source.js";
async function checkSources(sources, out) {
  const reads = /* @__PURE__ */ new Map();
  for (const [index, source] of sources.entries()) {
    const read = await readSource(source, void 0);
    const label = `source ${source.name} (${source.kind})`;
    if (read.status === "not-read") {
      out.fail(`${label}: not read: ${read.reason} (${read.detail})`);
      continue;
    }
    if (read.status === "not-modified") {
      out.fail(`${label}: answered 304 to a request without validators`);
      continue;
    }
    reads.set(source.name, read.snapshot);
    out.ok(`${label}: ${describeRead(source, read.snapshot)}`);
    for (const entry of unmatchedEntries(source, read.snapshot))
      out.warn(`sources[${index}].watchlist: ${entry}`);
  }
  return reads;
}
function describeRead(source, snapshot) {
  const listed = snapshot.issuers.length;
  const watched = snapshot.issuers.filter((issuer) => isWatched(source.watchlist, issuer)).length;
  const what = snapshot.content === "scope" ? "shares in scope" : "issuers";
  const follows = source.watchlist === "all" ? "all followed" : `${watched} followed`;
  const published = snapshot.publishedOn === void 0 ? "" : `, published ${snapshot.publishedOn}`;
  return `${listed} ${what} in ${snapshot.rows} rows, ${follows}${published}`;
}
function unmatchedEntries(source, snapshot) {
  if (source.watchlist === "all") return [];
  const directory = snapshot.issuers.map((issuer) => ({ svc_issuer_id: issuer.key, name: issuer.name }));
  return source.watchlist.filter((entry) => !snapshot.issuers.some((issuer) => isWatched([entry], issuer))).map((entry) => {
    const closest = closestNames(entry, directory);
    const hint = closest.length === 0 ? "" : `; closest: ${closest.join(", ")}`;
    return `"${entry}" is not listed by this register (it follows nothing until the register lists it${hint})`;
  });
}
export {
  checkSources
};
