import {
  addSubscriberCommand,
  editSubscriberCommand,
  exportSubscribersCommand,
  importSubscribersCommand,
  listSubscribersCommand,
  removeSubscriberCommand,
  showSubscriberCommand
} from "./commands/subscribers.js";
import { EXIT } from "./exit.js";
const collect = (value, previous = []) => [...previous, value];
function withPreferences(command) {
  return command.option("--name <name>", "the person's name").option("--email <address>", "their e-mail address").option("--issuer <issuer>", "follow this issuer (id, ISIN or name), any holder; repeatable", collect).option("--holder <holder>", "follow this holder wherever it is short; repeatable", collect).option("--kinds <list>", "only these kinds, e.g. opened,closed").option("--min-value <percent>", "only positions reaching this size (%)").option("--min-delta <points>", "only moves of at least this many percentage points").option("--mode <mode>", "immediate, digest or both").option("--timezone <zone>", "their IANA time zone (digest and quiet hours)").option("--digest <cron>", 'their digest schedule, e.g. "30 7 * * 1-5"');
}
function addSubscriberCommands(program, run) {
  const group = program.command("subscribers").description("traders' own watchlists, managed while the daemon runs");
  withPreferences(group.command("add").description("add a subscriber")).action(
    (opts) => run((ctx) => addSubscriberCommand(ctx, opts).then(() => EXIT.ok))()
  );
  withPreferences(group.command("edit <who>").description("change a subscriber (id or e-mail)")).option("--remove-issuer <issuer>", "stop following this issuer; repeatable", collect).option("--remove-holder <holder>", "stop following this holder; repeatable", collect).option("--pause", "send them nothing until --resume").option("--resume", "send again (also after an unsubscribe)").action(
    (who, opts) => run((ctx) => editSubscriberCommand(ctx, who, opts).then(() => EXIT.ok))()
  );
  group.command("remove <who>").description("remove a subscriber (id or e-mail)").action((who) => run((ctx) => removeSubscriberCommand(ctx, who).then(() => EXIT.ok))());
  group.command("list").description("every subscriber").action(() => run((ctx) => listSubscribersCommand(ctx).then(() => EXIT.ok))());
  group.command("show <who>").description("one subscriber: watchlist, preferences, a fresh manage link, the last changes").action((who) => run((ctx) => showSubscriberCommand(ctx, who).then(() => EXIT.ok))());
  group.command("import <file>").description("add or update subscribers from a CSV or YAML file (by e-mail)").option("--dry-run", "check every row, change nothing").action(
    (file, opts) => run((ctx) => importSubscribersCommand(ctx, file, opts))()
  );
  group.command("export").description("every subscriber as CSV (default) or YAML, for a later import").option("--format <format>", "csv or yaml").action(
    (opts) => run((ctx) => exportSubscribersCommand(ctx, opts).then(() => EXIT.ok))()
  );
}
export {
  addSubscriberCommands
};
