import { channelSchema } from "./channels.js";
import { configSchema } from "./config.js";
import { FILE_SECRET_KEYS } from "./file-secret-keys.js";
import { duration, secret } from "./value-types.js";
export {
  FILE_SECRET_KEYS,
  channelSchema,
  configSchema,
  duration,
  secret
};
