import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { parse as parseYaml } from "yaml";
import { deriveActive, IssuerBook } from "./issuer-book.js";
import { Random } from "./prng.js";
import { DEFAULT_CHANGE_RATE } from "./register-shape.js";
import { Scenario } from "./scenario.js";
import { ScenarioFileError } from "./scenario-file-error.js";
import { scenarioFileSchema } from "./scenario-file-schema.js";
import { OPENING_NAMES } from "./scenario-seed.js";
const LOADED_CAP = 12;
function scenarioFromFile(file) {
  const books = /* @__PURE__ */ new Map();
  let latest = "";
  for (const entry of file.issuers) {
    const active = entry.active ?? deriveActive(entry.history);
    for (const row of entry.history) if (row.date > latest) latest = row.date;
    const issuer = { svc_issuer_id: entry.svc_issuer_id, name: entry.name };
    books.set(
      issuer.svc_issuer_id,
      new IssuerBook(issuer, [...entry.history], [...active], Math.max(LOADED_CAP, active.length))
    );
  }
  const world = {
    rng: new Random(file.seed ?? 1),
    books,
    date: file.date ?? (latest || "2026-01-05"),
    stepIndex: 0,
    changeRate: DEFAULT_CHANGE_RATE,
    reopens: [],
    flapper: void 0,
    names: OPENING_NAMES
  };
  return new Scenario(world, file.last_updated);
}
function parseScenarioFile(data, source) {
  const result = scenarioFileSchema.safeParse(data);
  if (result.success) return result.data;
  throw new ScenarioFileError(
    source,
    result.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
  );
}
function loadScenarioFile(path) {
  let data;
  try {
    const text = readFileSync(path, "utf8");
    data = extname(path).toLowerCase() === ".json" ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ScenarioFileError(path, [`cannot read: ${reason}`], { cause: error });
  }
  return scenarioFromFile(parseScenarioFile(data, path));
}
export {
  loadScenarioFile,
  parseScenarioFile,
  scenarioFromFile
};
