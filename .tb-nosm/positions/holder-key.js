import { holderKey } from "../text/holder-key.js";
export {
  holderKey
};
