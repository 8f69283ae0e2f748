/** Links between console pages, built in one place so that every id is URL-encoded the same way. */
export const paths = {
  issuer: (id: string) => `/issuers/${encodeURIComponent(id)}`,
  issuerHistory: (id: string) => `/issuers/${encodeURIComponent(id)}/history`,
  holder: (key: string) => `/holders/${encodeURIComponent(key)}`,
  events: (filter: Record<string, string | undefined> = {}) => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== '') query.set(k, v);
    return query.size > 0 ? `/events?${query}` : '/events';
  },
};
