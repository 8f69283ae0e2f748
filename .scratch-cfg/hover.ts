import type { Config } from './old/schema.js';
declare const c: Config;
export const x = c.upstream.baseUrl;
