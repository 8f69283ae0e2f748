import { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/schema.js';
import type { JobContext, Settings } from '../jobs/context.js';
import { planFor } from '../jobs/plan-for.js';
import type { ReferencesAccepted } from '../preflight/reference-check.js';
import { ledgerRoot } from '../state/keys.js';
import { fingerprintOf } from '../upstream-clients.js';
import { budgetCaps } from './connections.js';
import { type Daemon, processOf } from './daemon.js';
import { reconcileAccess } from './duties/access-notice.js';
import { accountForChannels } from './duties/channel-accounting.js';
import { recordSpender } from './duties/shared-budget.js';
import { type Clients, closeAll, type LiveSettings } from './live-settings.js';

/** What a reload reads, builds and swaps. */
interface ReloadParts {
  ctx: JobContext;
  live: LiveSettings;
  daemon: Daemon | undefined;
  /** The checks a start shares with `shortwatch check`, writing nothing. */
  preflight: (config: Config) => Promise<ReferencesAccepted>;
  clients: (config: Config) => Clients;
  senders: (config: Config) => Pick<Settings, 'senders' | 'subscriberMail'>;
  /** Upserts the job schedulers for the settings in force. */
  syncSchedulers: () => Promise<void>;
}

/**
 * Swaps in a new config without a restart: watchlist, channels, plan, clients, schedulers. Whole or not
 * at all: everything that can fail is checked and built before anything running changes.
 */
export async function reloadConfig(
  parts: ReloadParts,
  config: Config,
  options: { workerOnly: boolean },
): Promise<void> {
  const { ctx, live } = parts;
  if (config.redis.prefix !== live.current.config.redis.prefix) {
    throw new ConfigError('reload', [{ path: 'redis.prefix', message: 'cannot change without a restart' }]);
  }
  const upstreamChange = upstreamAddedOrRemoved(live.current.config, config);
  if (upstreamChange !== undefined)
    throw new ConfigError('reload', [{ path: 'upstream', message: upstreamChange }]);
  const { watched, directory, fetched } = await parts.preflight(config);
  const plan = planFor(config, directory);
  const clients = parts.clients(config);
  let senders: Pick<Settings, 'senders' | 'subscriberMail'>;
  try {
    senders = parts.senders(config);
  } catch (error) {
    await closeAll({ clients, senders: new Map() });
    throw error;
  }
  const previousFingerprint = live.current.fingerprint;
  const replaced = live.swap(
    { config, plan, watched, ...senders, fingerprint: fingerprintOf(config) },
    clients,
  );
  if (fetched) await ctx.directory.save(fetched.data, fetched.last_updated, ctx.now());
  await spendNewBudget(parts, previousFingerprint);
  await reconcileAccess(ctx, live.current.fingerprint);
  if (!options.workerOnly) await parts.syncSchedulers();
  await parts.daemon?.syncChannels();
  await accountForChannels(ctx, config.channels);
  await closeAll(replaced);
}

/**
 * Why a reload cannot add or remove `upstream`, or undefined: the API's workers, duties and budget are
 * wired at start (a registers-only process has none), so the change needs a restart.
 */
function upstreamAddedOrRemoved(current: Config, next: Config): string | undefined {
  if ((current.upstream === undefined) === (next.upstream === undefined)) return undefined;
  return current.upstream === undefined
    ? 'cannot be added without a restart (this process started registers-only: no API sweep, poll workers or budget); restart shortwatch with the new config'
    : 'cannot be removed without a restart (this process runs the API sweep, poll workers and budget); restart shortwatch with the new config';
}

/** Counts in the budget of the config in force; a beating process that changed key moves its record. */
async function spendNewBudget(parts: ReloadParts, previousFingerprint: string): Promise<void> {
  const { ctx, live } = parts;
  const { config, fingerprint } = live.current;
  const spentBefore = ctx.budget.spenders;
  ctx.budget.configure({ ledger: ledgerRoot(fingerprint), ...budgetCaps(config) });
  if (!parts.daemon?.beating || fingerprint === previousFingerprint || config.upstream === undefined) return;
  // Another key: this process spends another budget from now on. It leaves the old one's record at
  // once (deployments still on the old key stop counting it) and beats in the new one.
  await spentBefore.leave(config.redis.prefix, ctx.processId).catch(() => undefined);
  await recordSpender({ ...processOf(ctx), deployment: config.redis.prefix }).catch(() => undefined);
}
