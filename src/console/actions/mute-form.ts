import type { App } from '../../app.js';
import { parseDuration } from '../../config/duration.js';
import { checkHolderName, holderStores } from '../../lookup/holder-lookup.js';
import { issuerSources, lookupIssuer } from '../../lookup/issuer-lookup.js';
import { isLookupError } from '../../lookup/lookup-error.js';
import { isInvalidMuteError, type MuteRequest } from '../../routing/index.js';

/** The mute form's fields as typed. */
export interface MuteFields {
  scope: string;
  target: string;
  channel: string;
  for: string;
  reason: string;
  digests: boolean;
}

/** The fields of a posted mute form. */
export function muteFields(form: URLSearchParams): MuteFields {
  const get = (name: string) => (form.get(name) ?? '').trim();
  return {
    scope: get('scope'),
    target: get('target'),
    channel: get('channel'),
    for: get('for'),
    reason: get('reason'),
    digests: form.get('digests') === 'on',
  };
}

/**
 * Checks the form as `shortwatch mute` checks its arguments and turns it into a request: a duration, a
 * configured channel, and an issuer known to the issuer list or the watchlist (a label stored as the id,
 * since mutes match what routing sees), and a holder the deployment knows (lookup/holder-lookup.ts,
 * strict: one no source names is refused with the closest match, as a misspelling). A string says what
 * is wrong.
 */
export async function muteRequest(app: App, f: MuteFields): Promise<MuteRequest | string> {
  if (f.scope !== 'holder' && f.scope !== 'issuer') return 'mute what? holder or issuer';
  if (f.target === '') return `name the ${f.scope} to mute`;
  const forMs = parseDuration(f.for);
  if (!forMs || forMs <= 0) return `"${f.for}" is not a duration (e.g. 7d, 12h)`;
  if (f.channel && !app.settings.config.channels.some((c) => c.name === f.channel))
    return `no channel named "${f.channel}"`;
  let target = f.target;
  try {
    if (f.scope === 'issuer') {
      const issuer = lookupIssuer(
        f.target,
        await issuerSources(app.ctx.directory, app.settings.config.watchlist),
      );
      if (issuer.via === 'label') target = issuer.id;
    } else await checkHolderName(holderStores(app.ctx), app.settings.config, f.target, { strict: true });
  } catch (error) {
    if (isLookupError(error)) return error.message;
    throw error;
  }
  return {
    scope: f.scope,
    target,
    ...(f.channel ? { channel: f.channel } : {}),
    ...(f.reason ? { reason: f.reason } : {}),
    digests: f.digests,
    forMs,
  };
}

/** Adds the mute; a string says why it was refused. */
export async function addMute(app: App, request: MuteRequest): Promise<string | null> {
  try {
    await app.ctx.mutes.add(request);
    return null;
  } catch (error) {
    if (isInvalidMuteError(error)) return error.message;
    throw error;
  }
}
