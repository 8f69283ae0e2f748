// The holder key is plain text normalisation, kept in the base layer so the config's alias table
// (`holders.aliases`) is checked with the same keys the diff uses.
export { holderKey } from '../text/holder-key.js';
