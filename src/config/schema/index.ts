// The config schema, one module per section of the file.
//
// One source per key's documentation: the key's `.describe()` string, right where the key is
// defined. scripts/config-docs.ts reads those strings (through z.toJSONSchema) to generate
// docs/configuration.md (`npm run docs:config`), so keys carry no TSDoc of their own: a second
// hand-written copy drifts. test/config/config-docs.test.ts enforces both halves (every key has a
// description; no TSDoc comment in src/config/schema/ repeats one, and none sits on a key).
// The cost: an editor hovering `config.poll.gateInterval` shows its type, not its text; the text is
// in docs/configuration.md. TSDoc stays on exports (the schemas, the types, the building blocks),
// saying what each is in the code.

export type { ChannelFilter } from './channel-filter.js';
export type { ChannelConfig, ChannelKind } from './channels.js';
export { channelSchema } from './channels.js';
export type { Config } from './config.js';
export { configSchema } from './config.js';
export { FILE_SECRET_KEYS } from './file-secret-keys.js';
export type { QuietHours } from './quiet-hours.js';
export type { UpstreamConfig } from './upstream.js';
export { duration, secret } from './value-types.js';
export type { WatchEntry, Watchlist } from './watchlist.js';
