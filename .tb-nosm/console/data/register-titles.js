const REGISTER_TITLES = {
  "afm-current": "AFM (Netherlands): net short positions, current",
  "afm-history": "AFM (Netherlands): net short positions, history",
  "no-ssr-json": "Finanstilsynet (Norway): short sale register, JSON",
  "no-ssr-csv": "Finanstilsynet (Norway): short sale register, CSV",
  "se-fi-current": "Finansinspektionen (Sweden): net short positions, current",
  "se-fi-aggregate": "Finansinspektionen (Sweden): aggregated net short positions",
  "uk-ansp-current": "FCA (UK): aggregated net short positions, current",
  "uk-ansp-historic": "FCA (UK): aggregated net short positions, historic",
  "uk-reportable-shares": "FCA (UK): Reportable Shares List",
  "uk-legacy-holders": "FCA (UK): named net short positions (legacy, frozen 10 Jul 2026)",
  "it-consob": "CONSOB (Italy): net short positions",
  "es-cnmv": "CNMV (Spain): net short positions",
  "ie-cbi": "Central Bank of Ireland: significant net short positions",
  "be-fsma-current": "FSMA (Belgium): net short positions, current",
  "be-fsma-history": "FSMA (Belgium): net short positions, history",
  "at-fma-history": "FMA (Austria): net short positions, history",
  "pl-knf-html": "KNF (Poland): short selling register, current (HTML)",
  "pl-knf-json-current": "KNF (Poland): short selling register, current (JSON API)",
  "pl-knf-json-history": "KNF (Poland): short selling register, history (JSON API)",
  "de-banz-current": "BaFin via Bundesanzeiger (Germany): net short positions, open list",
  "de-banz-history": "BaFin via Bundesanzeiger (Germany): net short positions, historical export",
  "fr-amf": "AMF (France): net short positions (data.gouv.fr export)",
  "fi-fsa-current": "FIN-FSA (Finland): net short positions, current"
};
export {
  REGISTER_TITLES
};
