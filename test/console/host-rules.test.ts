import { describe, expect, it } from 'vitest';
import { hostAllowed, hostRules, postSourceAllowed } from '../../src/console/host-rules.js';

const none = hostRules({ allowedHosts: [] });
const configured = hostRules({
  allowedHosts: ['shortwatch', 'ops.example.com:8443', '[fd00::5]'],
  publicUrl: 'https://console.example.com/',
});

describe('which Host the endpoint serves', () => {
  it.each<[string, ReturnType<typeof hostRules>, string | undefined, boolean]>([
    ['127.0.0.1 with the port', none, '127.0.0.1:9464', true],
    ['localhost with the port', none, 'localhost:9464', true],
    ['LOCALHOST in capitals', none, 'LOCALHOST:9464', true],
    ['[::1] with the port', none, '[::1]:9464', true],
    ['another 127/8 address', none, '127.0.0.2:9464', true],
    ['loopback through a forwarded port (ssh -L, a remapped container port)', none, 'localhost:8000', true],
    ['loopback without a port', none, 'localhost', true],
    ['a rebound name', none, 'rebound.test:9464', false],
    ['a name ending in localhost', none, 'evil-localhost:9464', false],
    ['localhost as a subdomain of another name', none, 'localhost.evil.example:9464', false],
    // A page whose origin is an address was served by that address: no rebinding without a name.
    ['a LAN address', none, '192.168.1.20:9464', true],
    ['a compose network address (dns_sd scrape)', none, '172.18.0.3:9464', true],
    ['0.0.0.0', none, '0.0.0.0:9464', true],
    ['an IPv6 address', none, '[fd00::7]:9464', true],
    ['an IPv4 address in hex (canonicalised)', none, '0x7f.1:9464', true],
    ['a name made of digits and letters', none, '1.2.3.evil:9464', false],
    ['userinfo before loopback', none, 'evil@127.0.0.1:9464', false],
    ['a path after loopback', none, '127.0.0.1:9464/x', false],
    ['a backslash', none, '127.0.0.1\\evil', false],
    ['no Host header', none, undefined, false],
    ['empty', none, '', false],
    ['an allowed name, any port', configured, 'shortwatch:9464', true],
    ['an allowed name without a port', configured, 'shortwatch', true],
    ['an allowed name in capitals', configured, 'ShortWatch:9464', true],
    ['an allowed name with its port', configured, 'ops.example.com:8443', true],
    ['an allowed name on another port', configured, 'ops.example.com:9464', false],
    ['an allowed name without the port it names', configured, 'ops.example.com', false],
    ['an allowed IPv6 address', configured, '[fd00::5]:9464', true],
    ['an allowed name as a dotted suffix', configured, 'shortwatch.evil.example', false],
    ['the public URL host', configured, 'console.example.com', true],
    ['a subdomain of an allowed name', configured, 'x.shortwatch:9464', false],
    ['an unlisted name, with names configured', configured, 'rebound.test:9464', false],
  ])('%s: %s', (_, rules, host, expected) => {
    expect(hostAllowed(rules, host)).toBe(expected);
  });
});

describe('where a POST may come from (Origin, else Referer)', () => {
  it.each<[string, ReturnType<typeof hostRules>, Record<string, string>, boolean]>([
    ['the same origin', none, { host: '127.0.0.1:9464', origin: 'http://127.0.0.1:9464' }, true],
    ['the same origin, localhost', none, { host: 'localhost:9464', origin: 'http://localhost:9464' }, true],
    ['the same origin, [::1]', none, { host: '[::1]:9464', origin: 'http://[::1]:9464' }, true],
    [
      'a Referer of the console, no Origin',
      none,
      { host: '127.0.0.1:9464', referer: 'http://127.0.0.1:9464/mutes?x=1' },
      true,
    ],
    ['neither Origin nor Referer', none, { host: '127.0.0.1:9464' }, false],
    ['Origin: null (a sandboxed page, a data: URL)', none, { host: '127.0.0.1:9464', origin: 'null' }, false],
    ['another site', none, { host: '127.0.0.1:9464', origin: 'http://evil.example' }, false],
    [
      'the same origin by address',
      none,
      { host: '192.168.1.20:9464', origin: 'http://192.168.1.20:9464' },
      true,
    ],
    [
      'another address than the Host',
      none,
      { host: '192.168.1.20:9464', origin: 'http://192.168.1.21:9464' },
      false,
    ],
    [
      'another local web app (another port)',
      none,
      { host: '127.0.0.1:9464', origin: 'http://127.0.0.1:3000' },
      false,
    ],
    [
      'another loopback name than the Host',
      none,
      { host: '127.0.0.1:9464', origin: 'http://localhost:9464' },
      false,
    ],
    [
      'the rebound page posting to itself',
      none,
      { host: 'rebound.test:9464', origin: 'http://rebound.test:9464' },
      false,
    ],
    [
      'an Origin of another site beside a console Referer',
      none,
      { host: '127.0.0.1:9464', origin: 'http://evil.example', referer: 'http://127.0.0.1:9464/' },
      false,
    ],
    ['a Referer of another site', none, { host: '127.0.0.1:9464', referer: 'http://evil.example/x' }, false],
    ['a Referer that is not a URL', none, { host: '127.0.0.1:9464', referer: '/mutes' }, false],
    ['a file: origin', none, { host: '127.0.0.1:9464', origin: 'file://' }, false],
    [
      'https through the public URL, the proxy passing its own Host',
      configured,
      { host: '127.0.0.1:9464', origin: 'https://console.example.com' },
      true,
    ],
    [
      'the public URL over plain http',
      configured,
      { host: 'console.example.com', origin: 'http://console.example.com' },
      true,
    ],
    [
      'an allowed name with its port',
      configured,
      { host: 'ops.example.com:8443', origin: 'https://ops.example.com:8443' },
      true,
    ],
    [
      'an allowed name on another port',
      configured,
      { host: '127.0.0.1:9464', origin: 'https://ops.example.com' },
      false,
    ],
    [
      'a Host the endpoint does not serve',
      configured,
      { host: 'rebound.test', origin: 'https://console.example.com' },
      false,
    ],
  ])('%s', (_, rules, headers, expected) => {
    expect(postSourceAllowed(rules, headers)).toBe(expected);
  });
});
