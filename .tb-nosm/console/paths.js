const paths = {
  issuer: (id) => `/issuers/${encodeURIComponent(id)}`,
  issuerHistory: (id) => `/issuers/${encodeURIComponent(id)}/history`,
  holder: (key) => `/holders/${encodeURIComponent(key)}`,
  /** One register source's watched issuers. */
  source: (name) => `/sources/${encodeURIComponent(name)}`,
  /** One issuer of one register source, by its key there (an ISIN, or `lei:<LEI>`). */
  sourceIssuer: (name, key) => `/sources/${encodeURIComponent(name)}/${encodeURIComponent(key)}`,
  /** The page of the issuer an event is about: its register's page for an event read from a register. */
  eventIssuer: (event) => event.source === void 0 ? paths.issuer(event.issuer.id) : paths.sourceIssuer(event.source, event.issuer.id),
  events: (filter = {}) => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (v !== void 0 && v !== "") query.set(k, v);
    return query.size > 0 ? `/events?${query}` : "/events";
  }
};
export {
  paths
};
