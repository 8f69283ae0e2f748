import type { Writable } from 'node:stream';
import type { Logger } from '../telemetry/logger.js';

/** How an App is built; everything from outside is passed in. */
export interface AppOptions {
  logger: Logger;
  now?: () => Date;
  /** Where console channels write; stdout by default. */
  consoleOut?: Writable;
  /** The config file, named by the config errors a refused start reports. */
  configFile?: string;
}
