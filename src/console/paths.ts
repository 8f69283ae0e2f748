import type { PositionEvent } from '../positions/types.js';

/** Links between console pages, built in one place so that every id is URL-encoded the same way. */
export const paths = {
  issuer: (id: string) => `/issuers/${encodeURIComponent(id)}`,
  issuerHistory: (id: string) => `/issuers/${encodeURIComponent(id)}/history`,
  holder: (key: string) => `/holders/${encodeURIComponent(key)}`,
  /** One register source's watched issuers. */
  source: (name: string) => `/sources/${encodeURIComponent(name)}`,
  /** One issuer of one register source, by its key there (an ISIN, or `lei:<LEI>`). */
  sourceIssuer: (name: string, key: string) =>
    `/sources/${encodeURIComponent(name)}/${encodeURIComponent(key)}`,
  /** The page of the issuer an event is about: its register's page for an event read from a register. */
  eventIssuer: (event: Pick<PositionEvent, 'source' | 'issuer'>) =>
    event.source === undefined
      ? paths.issuer(event.issuer.id)
      : paths.sourceIssuer(event.source, event.issuer.id),
  /** One subscriber's page in the console (never their own signed preference page). */
  subscriber: (id: string) => `/subscribers/${encodeURIComponent(id)}`,
  events: (filter: Record<string, string | undefined> = {}) => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== '') query.set(k, v);
    return query.size > 0 ? `/events?${query}` : '/events';
  },
};
