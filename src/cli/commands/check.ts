import { planFor } from '../../app.js';
import { withBudgetWait } from '../budget-wait.js';
import type { CommandContext } from '../context.js';
import { withApp } from '../context.js';
import { describeFailure } from '../exit.js';

/**
 * `shortwatch check`: the config is valid (or the command already exited 2), the plan fits, Redis answers,
 * each channel's settings verify without sending (SMTP connect + AUTH, webhook URL shape), and — unless
 * `--offline` — the upstream accepts the key (one request from the interactive reserve).
 */
export async function checkCommand(ctx: CommandContext, options: { offline?: boolean }): Promise<number> {
  let failures = 0;
  const ok = (what: string) => ctx.out(`ok    ${what}`);
  const fail = (what: string) => {
    failures += 1;
    ctx.out(`FAIL  ${what}`);
  };
  ok(
    `config ${ctx.configFile}: ${ctx.config.watchlist.length} watched issuers, ${ctx.config.channels.length} channels`,
  );
  const plan = planFor(ctx.config);
  ok(`plan: ${plan.summary[0] ?? 'fits the budget'}`);
  await withApp(ctx, async (app) => {
    ok(`redis answers (prefix ${ctx.config.redis.prefix})`);
    for (const [name, sender] of app.settings.senders) {
      try {
        ok(`channel ${name}: ${await sender.verify()}`);
      } catch (error) {
        fail(`channel ${name}: ${describeFailure(error).message}`);
      }
    }
    if (options.offline) return;
    try {
      const list = await withBudgetWait(
        Boolean(ctx.options.wait),
        () => app.client('interactive').listIssuers(),
        ctx.out,
      );
      ok(`upstream ${ctx.config.upstream.baseUrl}: key accepted, ${list.data.length} issuers`);
    } catch (error) {
      fail(`upstream ${ctx.config.upstream.baseUrl}: ${describeFailure(error).message}`);
    }
  });
  return failures === 0 ? 0 : 1;
}
