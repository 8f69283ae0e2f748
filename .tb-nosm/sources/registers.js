import { afmCurrent, afmHistory } from "./parsers/afm.js";
import { fmaHistory } from "./parsers/austria.js";
import { finFsaCurrent } from "./parsers/finland.js";
import { amf } from "./parsers/france.js";
import { banzCurrent, banzHistory } from "./parsers/germany.js";
import { cbi, cnmv, consob, fsmaCurrent, fsmaHistory, ukLegacyHolders } from "./parsers/named-registers.js";
import { norwaySsrCsv, norwaySsrJson } from "./parsers/norway.js";
import { knfHtml, knfJsonCurrent, knfJsonHistory } from "./parsers/poland.js";
import { swedenAggregate, swedenCurrent } from "./parsers/sweden.js";
import { ukAnspCurrent, ukAnspHistoric, ukReportableShares } from "./parsers/uk-ansp.js";
import { joinSwedish } from "./sweden-join.js";
const REGISTER_READERS = {
  "afm-current": afmCurrent,
  "afm-history": afmHistory,
  "no-ssr-json": norwaySsrJson,
  "no-ssr-csv": norwaySsrCsv,
  "se-fi-current": swedenCurrent,
  "se-fi-aggregate": swedenAggregate,
  "uk-ansp-current": ukAnspCurrent,
  "uk-ansp-historic": ukAnspHistoric,
  "uk-reportable-shares": ukReportableShares,
  "uk-legacy-holders": ukLegacyHolders,
  "it-consob": consob,
  "es-cnmv": cnmv,
  "ie-cbi": cbi,
  "be-fsma-current": fsmaCurrent,
  "be-fsma-history": fsmaHistory,
  "at-fma-history": fmaHistory,
  "pl-knf-html": knfHtml,
  "pl-knf-json-current": knfJsonCurrent,
  "pl-knf-json-history": knfJsonHistory,
  "de-banz-current": banzCurrent,
  "de-banz-history": banzHistory,
  "fr-amf": amf,
  "fi-fsa-current": finFsaCurrent
};
const REGISTER_PAIRS = {
  "se-fi-current": { companion: "se-fi-aggregate", join: joinSwedish }
};
export {
  REGISTER_PAIRS,
  REGISTER_READERS
};
