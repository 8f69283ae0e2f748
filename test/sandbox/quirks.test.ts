import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QUIRKS, type Quirk, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { positionsResponseSchema } from '../../src/upstream/schemas.js';
import { call } from './http.js';

// Seed 1: ISS-0001 (a crowded name) lists 9 rows (23 in its history), ISS-0002 one, ISS-0009 none.
// Cases that depend on a count find or make the rows they need, so a retuned world keeps them.
const ID = 'ISS-0001';
const HOUR_MS = 3_600_000;

/** A positions answer's body, read loosely: quirks make it differ from the schema on purpose. */
interface Body {
  issuer: { svc_issuer_id: string; name: string };
  status: string;
  data: Array<{ date: string; value: number | string; position_holder: string }>;
  last_updated: string | null;
  next?: string;
  total?: number;
  has_more?: boolean;
}

async function positions(sandbox: Sandbox, path = `/issuers/${ID}/positions`): Promise<Body> {
  const response = await call(sandbox, path);
  expect(response.status).toBe(200);
  return response.json() as Body;
}

/** Injects the quirk once on ISS-0001 and returns that issuer's quirked answer. */
async function quirked(sandbox: Sandbox, quirk: Quirk, path = `/issuers/${ID}/positions`): Promise<Body> {
  sandbox.faults.inject({ issuerId: ID, quirk });
  const body = await positions(sandbox, path);
  expect(sandbox.faults.pending()).toBe(0);
  return body;
}

const listed = (sandbox: Sandbox, id = ID) => sandbox.scenario.active(id) ?? [];
const datasetTime = (sandbox: Sandbox) => Date.parse(sandbox.scenario.lastUpdated() ?? '');

/** One named case per quirk: typed over every quirk, so a new quirk without a test does not compile. */
const CASES: Record<Quirk, (sandbox: Sandbox) => Promise<void>> = {
  'null-last-updated': async (sandbox) => {
    const body = await quirked(sandbox, 'null-last-updated');
    expect(body.last_updated).toBeNull();
    expect(body.data).toEqual(listed(sandbox));
    expect(positionsResponseSchema.safeParse(body).success).toBe(true);
  },
  'lagging-last-updated': async (sandbox) => {
    const body = await quirked(sandbox, 'lagging-last-updated');
    expect(Date.parse(body.last_updated ?? '')).toBe(datasetTime(sandbox) - HOUR_MS);
    expect(body.data).toEqual(listed(sandbox));
  },
  'backwards-last-updated': async (sandbox) => {
    const before = listed(sandbox);
    sandbox.scenario.disclose(ID, 'Fresh Capital LLP', 0.9);
    const body = await quirked(sandbox, 'backwards-last-updated');
    expect(Date.parse(body.last_updated ?? '')).toBe(datasetTime(sandbox) - 24 * HOUR_MS);
    expect(body.data).toEqual(before);
    expect(listed(sandbox)).toContainEqual(expect.objectContaining({ position_holder: 'Fresh Capital LLP' }));
  },
  'wrong-issuer': async (sandbox) => {
    const body = await quirked(sandbox, 'wrong-issuer');
    expect(body.issuer).toEqual(sandbox.scenario.issuer('ISS-0002'));
    expect(body.data).toEqual(listed(sandbox, 'ISS-0002'));
    expect(body.status).toBe('active');
  },
  'status-all': async (sandbox) => {
    const body = await quirked(sandbox, 'status-all');
    expect(body.status).toBe('all');
    expect(body.data).toEqual(sandbox.scenario.all(ID));
    expect(body.data.length).toBeGreaterThan(listed(sandbox).length);
  },
  paginated: async (sandbox) => {
    // An odd number of rows, so that page 1 shows the rounding up.
    if (listed(sandbox).length % 2 === 0) sandbox.scenario.disclose(ID, 'Odd One Out LLP', 0.7);
    const all = listed(sandbox);
    expect(all.length % 2).toBe(1);
    const body = await quirked(sandbox, 'paginated');
    expect(body).toMatchObject({
      total: all.length,
      has_more: true,
      data: all.slice(0, (all.length + 1) / 2),
    });
    const next = new URL(body.next ?? '');
    expect(`${next.origin}${next.pathname}`).toBe(`${sandbox.url}/issuers/${ID}/positions`);
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('status')).toBe('active');
  },
  vanish: async (sandbox) => {
    expect(listed(sandbox).length).toBeGreaterThan(0);
    const body = await quirked(sandbox, 'vanish');
    expect(body.data).toEqual([]);
    expect(body.issuer).toEqual(sandbox.scenario.issuer(ID));
    expect(body.last_updated).toBe(sandbox.scenario.lastUpdated());
  },
  'strings-for-numbers': async (sandbox) => {
    const body = await quirked(sandbox, 'strings-for-numbers');
    expect(body.data.map((row) => row.value)).toEqual(listed(sandbox).map((row) => String(row.value)));
    expect(positionsResponseSchema.safeParse(body).success).toBe(false);
  },
};

describe('sandbox quirks', () => {
  let sandbox: Sandbox;

  beforeEach(async () => {
    sandbox = await startSandbox();
  });
  afterEach(() => sandbox.close());

  it('names every quirk once', () => {
    expect(Object.keys(CASES).sort()).toEqual([...QUIRKS].sort());
  });

  it.each(QUIRKS)('%s: reshapes one positions answer, and the next answer is normal again', async (quirk) => {
    await CASES[quirk](sandbox);
    const normal = await positions(sandbox);
    expect(normal).toEqual({
      issuer: sandbox.scenario.issuer(ID),
      status: 'active',
      data: listed(sandbox),
      last_updated: sandbox.scenario.lastUpdated(),
    });
  });

  it('leaves the issuer list alone and spends no use of the quirk on it', async () => {
    sandbox.faults.inject({ quirk: 'null-last-updated' });
    const list = await call(sandbox, '/issuers');
    expect(list.json()).toMatchObject({ last_updated: sandbox.scenario.lastUpdated() });
    expect(sandbox.faults.pending()).toBe(1);
    expect((await positions(sandbox)).last_updated).toBeNull();
    expect(sandbox.faults.pending()).toBe(0);
  });

  it('applies to every issuer and every answer while `times` is Infinity, until cleared', async () => {
    sandbox.faults.inject({ quirk: 'vanish', times: Number.POSITIVE_INFINITY });
    for (const id of ['ISS-0001', 'ISS-0011', 'ISS-0001']) {
      expect((await positions(sandbox, `/issuers/${id}/positions`)).data).toEqual([]);
    }
    sandbox.faults.clear();
    expect((await positions(sandbox)).data).toEqual(listed(sandbox));
  });

  it('targets one issuer', async () => {
    sandbox.faults.inject({ issuerId: 'ISS-0011', quirk: 'vanish', times: Number.POSITIVE_INFINITY });
    expect((await positions(sandbox)).data).toEqual(listed(sandbox));
    expect((await positions(sandbox, '/issuers/ISS-0011/positions')).data).toEqual([]);
  });

  it('leaves a 404 and a 400 unchanged, though the request uses the fault', async () => {
    sandbox.faults.inject({ quirk: 'wrong-issuer', times: 2 });
    const unknown = await call(sandbox, '/issuers/ISS-9999/positions');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: 'Issuer not found.' });
    const invalid = await call(sandbox, `/issuers/${ID}/positions?status=closed`);
    expect(invalid.status).toBe(400);
    expect(invalid.json()).toMatchObject({ error: 'invalid_request' });
    expect(sandbox.faults.pending()).toBe(0);
  });

  it('combines with the other fields of a fault (a delay, extra headers)', async () => {
    sandbox.faults.inject({ issuerId: ID, quirk: 'vanish', delayMs: 20, headers: { 'x-cache': 'stale' } });
    const response = await call(sandbox, `/issuers/${ID}/positions`);
    expect(response.headers.get('x-cache')).toBe('stale');
    expect((response.json() as Body).data).toEqual([]);
  });

  it('wrong-issuer: the last issuer answers as the first', async () => {
    sandbox.faults.inject({ quirk: 'wrong-issuer' });
    const body = await positions(sandbox, '/issuers/ISS-0012/positions');
    expect(body.issuer.svc_issuer_id).toBe('ISS-0001');
    expect(body.data).toEqual(listed(sandbox, 'ISS-0001'));
  });

  it('backwards-last-updated: the current rows while the issuer has not changed; the history before for status=all', async () => {
    sandbox.faults.inject({ issuerId: ID, quirk: 'backwards-last-updated' });
    expect((await positions(sandbox)).data).toEqual(listed(sandbox));
    const history = sandbox.scenario.all(ID) ?? [];
    sandbox.scenario.drop(ID, listed(sandbox)[0]?.position_holder ?? '');
    const afterDrop = listed(sandbox);
    sandbox.scenario.disclose(ID, 'Fresh Capital LLP', 0.9);
    sandbox.faults.inject({ issuerId: ID, quirk: 'backwards-last-updated', times: 2 });
    // The latest change was the disclosure: the stale node already has the drop, not the new row.
    expect((await positions(sandbox)).data).toEqual(afterDrop);
    const all = await positions(sandbox, `/issuers/${ID}/positions?status=all`);
    expect(all.data).toEqual(history);
    expect(all.status).toBe('all');
  });

  it('backwards-last-updated: after a step, the rows from before the step', async () => {
    const before = new Map(
      sandbox.scenario.issuers().map((i) => [i.svc_issuer_id, listed(sandbox, i.svc_issuer_id)]),
    );
    const changed = new Set(sandbox.scenario.step().map((change) => change.issuerId));
    expect(changed.size).toBeGreaterThan(0);
    for (const id of changed) {
      sandbox.faults.inject({ issuerId: id, quirk: 'backwards-last-updated' });
      const body = await positions(sandbox, `/issuers/${id}/positions`);
      const sorted = (rows: Body['data']) =>
        [...rows].sort(
          (a, b) => a.position_holder.localeCompare(b.position_holder) || a.date.localeCompare(b.date),
        );
      expect(sorted(body.data)).toEqual(sorted(before.get(id) ?? []));
    }
  });

  it('paginated: page 2 holds the rest while the quirk applies; without it the service ignores `page`', async () => {
    sandbox.faults.inject({ issuerId: ID, quirk: 'paginated', times: 2 });
    const first = await positions(sandbox);
    const rest = await positions(
      sandbox,
      new URL(first.next ?? '').pathname + new URL(first.next ?? '').search,
    );
    expect(rest).toMatchObject({ total: listed(sandbox).length, has_more: false });
    expect(rest.next).toBeUndefined();
    expect([...first.data, ...rest.data]).toEqual(listed(sandbox));
    const ignored = await positions(sandbox, `/issuers/${ID}/positions?page=2`);
    expect(ignored.data).toEqual(listed(sandbox));
    expect(ignored.has_more).toBeUndefined();
  });

  it('paginated: an issuer with one row gets it on page 1, with has_more still true', async () => {
    const one = sandbox.scenario.issuers().find((i) => listed(sandbox, i.svc_issuer_id).length === 1);
    const id = one?.svc_issuer_id ?? '';
    expect(id).not.toBe('');
    sandbox.faults.inject({ quirk: 'paginated' });
    const body = await positions(sandbox, `/issuers/${id}/positions`);
    expect(body).toMatchObject({ total: 1, has_more: true, data: listed(sandbox, id) });
  });

  it('strings-for-numbers: the same body as `body: schema`, even for an issuer with no rows', async () => {
    const empty = sandbox.scenario.issuers().find((i) => listed(sandbox, i.svc_issuer_id).length === 0);
    const id = empty?.svc_issuer_id ?? '';
    expect(id).not.toBe('');
    sandbox.faults.inject({ issuerId: id, quirk: 'strings-for-numbers' });
    const quirk = await positions(sandbox, `/issuers/${id}/positions`);
    sandbox.faults.inject({ issuerId: id, body: 'schema' });
    expect(await positions(sandbox, `/issuers/${id}/positions`)).toEqual(quirk);
    expect(positionsResponseSchema.safeParse(quirk).success).toBe(false);
  });
});
