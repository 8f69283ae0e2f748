import { round4 } from "../positions/round.js";
const NAMED_THRESHOLD = 0.5;
function diffAggregates(before, after, config) {
  if (after.content === "scope") return diffScope(before, after);
  const old = new Map(before.issuers.map((issuer) => [issuer.key, issuer]));
  const keys = /* @__PURE__ */ new Set([...old.keys(), ...after.issuers.map((issuer) => issuer.key)]);
  const now = new Map(after.issuers.map((issuer) => [issuer.key, issuer]));
  return [...keys].sort().flatMap((key) => diffIssuerAggregate(old.get(key), now.get(key), { before, after, config }));
}
function diffIssuerAggregate(was, is, ctx) {
  const subject = is ?? was;
  if (subject === void 0) return [];
  const issuer = refOf(ctx.after.kind, subject);
  const events = valueEvents(issuer, was?.aggregate, is?.aggregate, ctx.config);
  const threshold = is?.aggregate?.thresholdPercent ?? ctx.after.aggregateThreshold;
  if (threshold !== void 0) events.push(...revisions(issuer, was, is, threshold));
  if (ctx.before.namesHolders && ctx.after.namesHolders && was && is) {
    events.push(...belowThreshold(issuer, was, is, ctx.config));
  }
  return events;
}
function valueEvents(issuer, was, is, config) {
  if (was && is && was.thresholdPercent !== is.thresholdPercent) {
    return [...valueEvents(issuer, was, void 0, config), ...valueEvents(issuer, void 0, is, config)];
  }
  if (!was && is)
    return [{ kind: "aggregate-entered", issuer, thresholdPercent: is.thresholdPercent, to: value(is) }];
  if (was && !is)
    return [{ kind: "aggregate-ended", issuer, thresholdPercent: was.thresholdPercent, from: value(was) }];
  if (!was || !is) return [];
  const changePp = round4(is.percent - was.percent);
  if (changePp === 0 || Math.abs(changePp) < config.minChange) return [];
  const base = { issuer, thresholdPercent: is.thresholdPercent, from: value(was), to: value(is) };
  const events = [{ kind: "aggregate-changed", ...base, changePp }];
  for (const level of [...config.levels].sort((a, b) => a - b)) {
    if (was.percent < level && is.percent >= level)
      events.push({ kind: "aggregate-crossed", ...base, level, direction: "up" });
    if (was.percent >= level && is.percent < level)
      events.push({ kind: "aggregate-crossed", ...base, level, direction: "down" });
  }
  return events;
}
function revisions(issuer, was, is, thresholdPercent) {
  const old = new Map(keyedPoints(was?.aggregateHistory ?? []));
  const events = [];
  for (const [key, point] of keyedPoints(is?.aggregateHistory ?? [])) {
    const fromPercent = old.get(key)?.percent;
    if (fromPercent === void 0 || fromPercent === point.percent) continue;
    const changePp = round4(point.percent - fromPercent);
    events.push({
      kind: "aggregate-revised",
      issuer,
      thresholdPercent,
      date: point.date,
      fromPercent,
      toPercent: point.percent,
      changePp
    });
  }
  return events;
}
function keyedPoints(points) {
  const seen = /* @__PURE__ */ new Map();
  return points.map((point) => {
    const row = `${point.date}|${point.endedOn ?? ""}`;
    const nth = seen.get(row) ?? 0;
    seen.set(row, nth + 1);
    return [`${row}|${nth}`, point];
  });
}
function belowThreshold(issuer, was, is, config) {
  const before = hidden(was);
  const after = hidden(is);
  if (before === void 0 || after === void 0 || !is.aggregate) return [];
  if (before.named === 0 && after.named === 0) return [];
  if (was.aggregate?.thresholdPercent !== is.aggregate.thresholdPercent) return [];
  const changePp = round4(after.hidden - before.hidden);
  if (changePp === 0 || Math.abs(changePp) < config.belowThresholdMove) return [];
  return [
    {
      kind: "below-threshold-moved",
      issuer,
      thresholdPercent: is.aggregate.thresholdPercent,
      fromPercent: before.hidden,
      toPercent: after.hidden,
      changePp,
      aggregatePercent: is.aggregate.percent,
      namedPercent: after.named,
      namedFromPercent: NAMED_THRESHOLD
    }
  ];
}
function hidden(issuer) {
  if (!issuer.aggregate) return void 0;
  const here = issuer.positions.reduce((sum, position) => sum + position.percent, 0);
  const named = round4(here + (issuer.namedElsewhere ?? 0));
  return { hidden: Math.max(0, round4(issuer.aggregate.percent - named)), named };
}
function diffScope(before, after) {
  const was = new Set(before.issuers.map((issuer) => issuer.key));
  const is = new Set(after.issuers.map((issuer) => issuer.key));
  const added = after.issuers.filter((issuer) => !was.has(issuer.key));
  const removed = before.issuers.filter((issuer) => !is.has(issuer.key));
  return [
    ...added.map((issuer) => ({ kind: "scope-added", issuer: refOf(after.kind, issuer) })),
    ...removed.map(
      (issuer) => ({ kind: "scope-removed", issuer: refOf(after.kind, issuer) })
    )
  ].sort((a, b) => a.issuer.key.localeCompare(b.issuer.key));
}
function refOf(register, issuer) {
  const ref = { register, key: issuer.key, name: issuer.name };
  if (issuer.isin !== void 0) ref.isin = issuer.isin;
  if (issuer.lei !== void 0) ref.lei = issuer.lei;
  if (issuer.otherIsins !== void 0) ref.otherIsins = issuer.otherIsins;
  return ref;
}
function value(aggregate) {
  return { percent: aggregate.percent, date: aggregate.date };
}
export {
  diffAggregates,
  diffIssuerAggregate,
  hidden
};
