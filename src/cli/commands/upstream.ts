import { normaliseName } from '../../jobs/watchlist.js';
import type { Issuer } from '../../upstream/schemas.js';
import { withBudgetWait } from '../budget-wait.js';
import { type CommandContext, withApp } from '../context.js';
import { CliError } from '../exit.js';
import { renderTable } from '../table.js';

/** `shortwatch issuers [--search TEXT]`: the upstream's issuer list as a table. */
export async function issuersCommand(ctx: CommandContext, options: { search?: string }): Promise<void> {
  await withApp(ctx, async (app) => {
    const list = await withBudgetWait(
      Boolean(ctx.options.wait),
      () => app.client('interactive').listIssuers(),
      ctx.out,
    );
    await app.ctx.directory.save(list.data, list.last_updated, app.ctx.now());
    const needle = options.search ? normaliseName(options.search) : '';
    const rows = list.data
      .filter(
        (i) =>
          !needle || normaliseName(i.name).includes(needle) || i.svc_issuer_id.toLowerCase().includes(needle),
      )
      .map((i) => [i.svc_issuer_id, i.name]);
    ctx.out(renderTable(['ID', 'NAME'], rows));
    ctx.out(
      `\n${rows.length} of ${list.data.length} issuers; dataset last updated ${list.last_updated ?? 'unknown'}`,
    );
  });
}

/** `shortwatch positions ISSUER [--all]`: one issuer's disclosed positions, largest first. */
export async function positionsCommand(
  ctx: CommandContext,
  issuer: string,
  options: { all?: boolean },
): Promise<void> {
  await withApp(ctx, async (app) => {
    const client = app.client('interactive');
    const wait = Boolean(ctx.options.wait);
    const directory = (await app.ctx.directory.load())?.issuers;
    const id = resolveIssuerArgument(issuer, directory ?? []);
    const result = await withBudgetWait(
      wait,
      () => client.getPositions(id, options.all ? 'all' : 'active'),
      ctx.out,
    );
    const rows = [...result.data]
      .sort((a, b) => (options.all ? b.date.localeCompare(a.date) : b.value - a.value))
      .map((p) => [p.position_holder, `${Math.round(p.value * 10_000) / 10_000}%`, p.date]);
    ctx.out(`${result.issuer.name} (${result.issuer.svc_issuer_id}), ${result.status} positions`);
    ctx.out(renderTable(['HOLDER', 'VALUE', 'DATE'], rows));
    const total = result.data.reduce((sum, p) => sum + p.value, 0);
    const summary = options.all
      ? `${rows.length} disclosures`
      : `${rows.length} holders, total disclosed short ${Math.round(total * 100) / 100}%`;
    ctx.out(`\n${summary}; dataset last updated ${result.last_updated ?? 'unknown'}`);
  });
}

/** An issuer argument is an id, or a name found in the cached directory. */
export function resolveIssuerArgument(argument: string, directory: readonly Issuer[]): string {
  if (directory.some((i) => i.svc_issuer_id === argument)) return argument;
  const matches = directory.filter((i) => normaliseName(i.name) === normaliseName(argument));
  if (matches.length === 1 && matches[0]) return matches[0].svc_issuer_id;
  if (matches.length > 1) {
    throw new CliError(
      `"${argument}" names several issuers: ${matches.map((m) => m.svc_issuer_id).join(', ')}`,
      2,
    );
  }
  return argument;
}
