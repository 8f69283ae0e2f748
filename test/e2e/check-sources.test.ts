import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBytes } from '../helpers/register-fixtures.js';
import { runShortwatch, type Stack, startStack, withChannelPatch } from './harness.js';
import { AFM_FIXTURE, ANSP_FIXTURE } from './register-changes.js';
import { type RegisterServer, startRegisterServer } from './register-server.js';

// `check` before `start`: each register source is read once as the daemon would read it, so a wrong
// URL, a page served in place of the file or a watchlist entry the register does not list shows before
// the first silent baseline, not as a quiet day after it.
describe('check reads each register source once', () => {
  let stack: Stack;
  let server: RegisterServer;

  beforeAll(async () => {
    server = await startRegisterServer();
    server.serve('/afm.csv', registerBytes(AFM_FIXTURE));
    server.serve('/ansp.csv', registerBytes(ANSP_FIXTURE));
    server.serve('/broken.csv', '<!doctype html><html><body>Maintenance</body></html>');
    stack = await startStack({ issuers: 1, channels: ['slack'] });
  }, 60_000);

  afterAll(async () => {
    await stack?.cleanup();
    await server?.close();
  });

  const withSources = (sources: Record<string, unknown>[]) => {
    stack.writeConfig({ ...stack.configObject, sources });
    return runShortwatch(['check', '--config', stack.configPath]);
  };

  it('says what each register lists and how much of it is followed; a misspelt entry is a WARN with the closest name', async () => {
    const { code, stdout } = await withSources([
      {
        name: 'afm',
        kind: 'afm-current',
        url: server.url('/afm.csv'),
        watchlist: ['NL0000379121', 'Signfy N.V.'],
      },
      { name: 'fca', kind: 'uk-ansp-current', url: server.url('/ansp.csv') },
    ]);
    expect(stdout).toMatch(
      /^ok {4}source afm \(afm-current\): 20 issuers in 192 rows, 1 followed, published 2025-08-12$/m,
    );
    expect(stdout).toMatch(/^ok {4}source fca \(uk-ansp-current\): 6 issuers in 6 rows, all followed$/m);
    expect(stdout).toMatch(
      /^WARN {2}sources\[0\]\.watchlist: "Signfy N\.V\." is not listed by this register .*closest: Signify N\.V\. \(NL0011821392\)/m,
    );
    expect(code).toBe(0);
  });

  it('fails with the reason when a register serves a page in place of its file (exit 1)', async () => {
    const { code, stdout } = await withSources([
      { name: 'afm', kind: 'afm-current', url: server.url('/broken.csv') },
    ]);
    expect(stdout).toMatch(/^FAIL {2}source afm \(afm-current\): not read: html-page/m);
    expect(code).toBe(1);
  });

  // Issue 31: a holder in a filter is checked against every source that names holders, on a fresh
  // deployment too: nothing is stored under this stack's prefix, so the AFM file read now is what knows
  // Marshall Wace. The upstream's holders cannot be known without spending a request per issuer: a WARN.
  const afm = () => ({ name: 'afm', kind: 'afm-current', url: server.url('/afm.csv'), watchlist: 'all' });
  const holding = (holders: string[], sources = [afm()]) => {
    const config = withChannelPatch('desk', { filter: { holders } })({ ...stack.configObject, sources });
    stack.writeConfig(config);
  };

  it('a fresh deployment: a holder misspelt in a filter is refused by check and start (exit 2) with the register holder meant', async () => {
    holding(['Marshal Wace']);
    const expected =
      'channels[0].filter.holders[0]: holder "Marshal Wace" matches no holder in the snapshots, the event log or the registers\' files; closest: Marshall Wace LLP';
    const check = await runShortwatch(['check', '--config', stack.configPath]);
    expect(check.stdout).toContain(`FAIL  ${expected}`);
    expect(check.stdout).toMatch(
      /^WARN {2}filter holders not checked against the upstream's holders \(none stored before the first sweep/m,
    );
    expect(check.code, check.stdout).toBe(2);
    const start = await runShortwatch(['start', '--config', stack.configPath]);
    expect(start.stderr).toContain(`  - ${expected}`);
    expect(start.code, start.stderr).toBe(2);
  }, 90_000);

  it('a fresh deployment: a holder the register names passes, told against which sources', async () => {
    holding(['Marshall Wace']);
    const { code, stdout } = await runShortwatch(['check', '--config', stack.configPath]);
    expect(stdout).toMatch(
      /^ok {4}filter holders: each names one of the \d+ holders known \(register afm\)$/m,
    );
    expect(code, stdout).toBe(0);
  });

  it('a fresh API deployment without registers: nothing names a holder yet, a WARN (exit 0), not a pass', async () => {
    holding(['Marshal Wace'], []);
    const { code, stdout } = await runShortwatch(['check', '--config', stack.configPath]);
    expect(stdout).toMatch(
      /^WARN {2}filter holders not checked: nothing names a holder yet: the upstream's holders \(none stored before the first sweep; asking would spend a request per issuer\)$/m,
    );
    expect(stdout, stdout).not.toMatch(/^ok {4}filter holders/m);
    expect(code, stdout).toBe(0);
  });
});
