import { describe, expect, it } from 'vitest';
import { safeNext } from '../../src/console/safe-next.js';

// The `next` field as the handler sees it: already decoded once from the query or the form.
describe('sign-in return paths stay on the console', () => {
  it.each<[string, string | null | undefined, string]>([
    ['a page with its query', '/events?kind=opened', '/events?kind=opened'],
    ['an issuer path with an encoded id', '/issuers/ISS%2F1', '/issuers/ISS%2F1'],
    ['the overview', '/', '/'],
    ['a fragment', '/mutes#mutes', '/mutes#mutes'],
    ['dot segments are resolved on the console', '/a/../events', '/events'],
    ['protocol-relative', '//evil.example/x', '/'],
    ['backslash after the slash', '/\\evil.example', '/'],
    ['backslash later', '/x\\..\\..\\evil', '/'],
    ['a tab between the slashes (next=/%09/evil)', '/\t/evil.example', '/'],
    ['a newline between the slashes', '/\n/evil.example', '/'],
    ['a carriage return', '/\r/evil.example', '/'],
    ['the tab still encoded', '/%09/evil.example', '/'],
    ['an encoded slash', '/%2F/evil.example', '/'],
    ['an encoded slash, lower case', '/%2f%2fevil.example', '/'],
    ['an encoded backslash', '/%5Cevil.example', '/'],
    ['twice encoded slash', '/%252F%252Fevil.example', '/'],
    ['thrice encoded slash', '/%25252F%25252Fevil.example', '/'],
    ['an absolute https URL', 'https://evil.example/', '/'],
    ['an absolute URL naming the console', 'http://127.0.0.1:9464/events', '/'],
    ['a javascript: URL', 'javascript:alert(1)', '/'],
    ['a data: URL', 'data:text/html,hi', '/'],
    ['relative without a slash', 'evil.example', '/'],
    ['leading space', ' //evil.example', '/'],
    ['broken percent-encoding', '/%E0%A4%A', '/'],
    ['empty', '', '/'],
    ['absent (null)', null, '/'],
    ['absent (undefined)', undefined, '/'],
  ])('%s: %j → %s', (_, next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });
});
