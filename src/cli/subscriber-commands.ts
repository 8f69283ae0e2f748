import type { Command } from 'commander';
import {
  addSubscriberCommand,
  editSubscriberCommand,
  exportSubscribersCommand,
  importSubscribersCommand,
  listSubscribersCommand,
  removeSubscriberCommand,
  type SubscriberOptions,
  showSubscriberCommand,
} from './commands/subscribers.js';
import type { CommandContext } from './context.js';
import { EXIT } from './exit.js';

type Action = (ctx: CommandContext) => Promise<number | undefined> | number | undefined;
type Run = (action: Action) => () => Promise<void>;

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The options that set what a subscriber follows and wants, shared by `add` and `edit`. */
function withPreferences(command: Command): Command {
  return command
    .option('--name <name>', "the person's name")
    .option('--email <address>', 'their e-mail address')
    .option('--webhook <url>', 'also POST each change to their own https webhook (needs subscribers.webhook)')
    .option(
      '--slack-user <user>',
      'also DM each change to this Slack user id or address (needs subscribers.slack)',
    )
    .option('--issuer <issuer>', 'follow this issuer (id, ISIN or name), any holder; repeatable', collect)
    .option('--holder <holder>', 'follow this holder wherever it is short; repeatable', collect)
    .option('--kinds <list>', 'only these kinds, e.g. opened,closed')
    .option('--min-value <percent>', 'only positions reaching this size (%)')
    .option('--min-delta <points>', 'only moves of at least this many percentage points')
    .option('--mode <mode>', 'immediate, digest or both')
    .option('--timezone <zone>', 'their IANA time zone (digest and quiet hours)')
    .option('--digest <cron>', 'their digest schedule, e.g. "30 7 * * 1-5"');
}

/** `subscribers add|edit|remove|list|show|import|export`: traders managed at runtime. */
export function addSubscriberCommands(program: Command, run: Run): void {
  const group = program
    .command('subscribers')
    .description("traders' own watchlists, managed while the daemon runs");
  withPreferences(group.command('add').description('add a subscriber')).action((opts: SubscriberOptions) =>
    run((ctx) => addSubscriberCommand(ctx, opts).then(() => EXIT.ok))(),
  );
  withPreferences(group.command('edit <who>').description('change a subscriber (id or e-mail)'))
    .option('--remove-issuer <issuer>', 'stop following this issuer; repeatable', collect)
    .option('--remove-holder <holder>', 'stop following this holder; repeatable', collect)
    .option('--remove-webhook', 'stop posting to their webhook')
    .option('--remove-slack-user', 'stop sending them Slack DMs')
    .option('--pause', 'send them nothing until --resume')
    .option('--resume', 'send again (also after an unsubscribe)')
    .action((who: string, opts: SubscriberOptions) =>
      run((ctx) => editSubscriberCommand(ctx, who, opts).then(() => EXIT.ok))(),
    );
  group
    .command('remove <who>')
    .description('remove a subscriber (id or e-mail)')
    .action((who: string) => run((ctx) => removeSubscriberCommand(ctx, who).then(() => EXIT.ok))());
  group
    .command('list')
    .description('every subscriber')
    .action(() => run((ctx) => listSubscribersCommand(ctx).then(() => EXIT.ok))());
  group
    .command('show <who>')
    .description('one subscriber: watchlist, preferences, a fresh manage link, the last changes')
    .action((who: string) => run((ctx) => showSubscriberCommand(ctx, who).then(() => EXIT.ok))());
  group
    .command('import <file>')
    .description('add or update subscribers from a CSV or YAML file (by e-mail)')
    .option('--dry-run', 'check every row, change nothing')
    .action((file: string, opts: { dryRun?: boolean }) =>
      run((ctx) => importSubscribersCommand(ctx, file, opts))(),
    );
  group
    .command('export')
    .description('every subscriber as CSV (default) or YAML, for a later import')
    .option('--format <format>', 'csv or yaml')
    .action((opts: { format?: string }) =>
      run((ctx) => exportSubscribersCommand(ctx, opts).then(() => EXIT.ok))(),
    );
}
