import { readSource } from "../sources/read-source.js";
import { TimedOutError, within } from "../time/within.js";
import {
  mergeHolders,
  readKnownHolders,
  registerHolders,
  storedRegisterReads
} from "./known-holders.js";
function filtersNameHolders(config) {
  return config.channels.some(
    (channel) => (channel.filter.holders?.length ?? 0) + (channel.filter.excludeHolders?.length ?? 0) > 0
  );
}
const START_READ_MS = 2e4;
async function readRegisterOnce(source) {
  try {
    const read = await within(readSource(source, void 0), START_READ_MS, `register ${source.name}`);
    return read.status === "read" ? read.snapshot : void 0;
  } catch (error) {
    if (error instanceof TimedOutError) return void 0;
    throw error;
  }
}
async function gatherHolders(config, stores, watchedIds, options = {}) {
  const polled = await readKnownHolders(stores, watchedIds);
  const names = config.sources.map((source) => source.name);
  const stored = await storedRegisterReads(stores.registers, names);
  const reads = /* @__PURE__ */ new Map();
  const missing = [];
  for (const source of config.sources) {
    const read = options.fresh?.get(source.name) ?? stored.get(source.name);
    if (read !== void 0) reads.set(source.name, read);
    else missing.push(source);
  }
  const { readMissing } = options;
  if (readMissing !== void 0) {
    const now = await Promise.all(
      missing.map(async (source) => [source.name, await readMissing(source)])
    );
    for (const [name, read] of now) if (read !== void 0) reads.set(name, read);
  }
  const fromRegisters = [...reads.values()].map(registerHolders);
  return {
    holders: mergeHolders(polled, ...fromRegisters),
    fromUpstream: polled.length,
    registers: names.filter((name) => reads.has(name))
  };
}
function unjudgedSources(config, knowledge) {
  const gaps = [];
  if (config.upstream !== void 0 && knowledge.fromUpstream === 0)
    gaps.push(
      "the upstream's holders (none stored before the first sweep; asking would spend a request per issuer)"
    );
  const unread = config.sources.map((s) => s.name).filter((name) => !knowledge.registers.includes(name));
  if (unread.length > 0) gaps.push(`register ${unread.join(", ")} (not read)`);
  return gaps.length === 0 ? void 0 : gaps.join("; ");
}
export {
  filtersNameHolders,
  gatherHolders,
  readRegisterOnce,
  unjudgedSources
};
