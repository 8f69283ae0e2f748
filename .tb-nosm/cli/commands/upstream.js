import { displayText } from "../../channels/format.js";
import { normaliseName } from "../../jobs/watchlist.js";
import { lookupIssuer } from "../../lookup/issuer-lookup.js";
import { asOfMs, printPositionsAsOf } from "../as-of.js";
import { withBudgetWait } from "../budget-wait.js";
import { withApp } from "../context.js";
import { CliError } from "../exit.js";
import { activeTable, historyTable } from "../position-rows.js";
import { registerPositions } from "../register-positions.js";
import { renderTable } from "../table.js";
async function issuersCommand(ctx, options) {
  await withApp(ctx, async (app) => {
    const list = await withBudgetWait(
      Boolean(ctx.options.wait),
      () => app.client("interactive").listIssuers(),
      ctx.out
    );
    await app.ctx.directory.save(list.data, list.last_updated, app.ctx.now());
    const needle = options.search ? normaliseName(options.search) : "";
    const rows = list.data.filter(
      (i) => !needle || normaliseName(i.name).includes(needle) || i.svc_issuer_id.toLowerCase().includes(needle)
    ).map((i) => [i.svc_issuer_id, i.name]);
    ctx.out(renderTable(["ID", "NAME"], rows));
    ctx.out(
      `
${rows.length} of ${list.data.length} issuers; dataset last updated ${list.last_updated ?? "unknown"}`
    );
  });
}
async function positionsCommand(ctx, issuer, options) {
  await withApp(ctx, async (app) => {
    if (options.asOf !== void 0) {
      await printPositionsAsOf(app, issuer, asOfMs(options.asOf, app.ctx.now().getTime()), ctx.out);
      return;
    }
    if (app.settings.config.upstream === void 0) {
      for (const found of await registerPositions(app, issuer)) {
        ctx.out(displayText(found.title));
        ctx.out(renderTable(["HOLDER", "VALUE", "DATE"], found.rows));
        ctx.out(`
${found.summary}
`);
      }
      return;
    }
    const client = app.client("interactive");
    const wait = Boolean(ctx.options.wait);
    const directory = await savedOrFetchedDirectory(app, wait, ctx.out);
    const { id } = lookupIssuer(issuer, { directory, watchlist: ctx.config.watchlist }, { partial: true });
    const result = await withBudgetWait(
      wait,
      () => client.getPositions(id, options.all ? "all" : "active"),
      ctx.out
    );
    const { name, svc_issuer_id: issuerId } = result.issuer;
    ctx.out(`${displayText(name)} (${displayText(issuerId)}), ${result.status} positions`);
    const { rows, summary } = options.all ? historyTable(result.data) : activeTable(result.data);
    ctx.out(renderTable(["HOLDER", "VALUE", "DATE"], rows));
    ctx.out(`
${summary}; dataset last updated ${result.last_updated ?? "unknown"}`);
  });
}
async function savedOrFetchedDirectory(app, wait, say) {
  const saved = await app.ctx.directory.load();
  if (saved !== null) return saved.issuers;
  const list = await withBudgetWait(wait, () => app.client("interactive").listIssuers(), say);
  await app.ctx.directory.save(list.data, list.last_updated, app.ctx.now());
  return list.data;
}
function resolveIssuerArgument(argument, directory) {
  if (directory.some((i) => i.svc_issuer_id === argument)) return argument;
  const matches = directory.filter((i) => normaliseName(i.name) === normaliseName(argument));
  if (matches.length === 1 && matches[0]) return matches[0].svc_issuer_id;
  if (matches.length > 1) {
    throw new CliError(
      `"${argument}" names several issuers: ${matches.map((m) => m.svc_issuer_id).join(", ")}`,
      2
    );
  }
  return argument;
}
export {
  issuersCommand,
  positionsCommand,
  resolveIssuerArgument
};
