import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createHostGate } from '../../src/console/host-gate.js';

function requestFor(host: string): IncomingMessage {
  const request = new IncomingMessage(new Socket());
  request.headers = { host };
  request.url = '/mutes?x=1';
  return request;
}

describe('the host gate', () => {
  it('logs a refused host once, however often it comes back, and never an admitted one', () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    const http = { allowedHosts: ['shortwatch'] };
    const gate = createHostGate(() => http, pino({ level: 'info' }, sink));
    const seen = [
      'rebound.test:9464',
      'rebound.test:9464',
      '127.0.0.1:9464',
      'other.test',
      'rebound.test:9464',
    ].map((host) => gate.admits(requestFor(host)));
    expect(seen).toEqual([false, false, true, false, false]);
    expect(gate.admits(requestFor('shortwatch:9464'))).toBe(true);
    expect(lines.map((l) => [l.host, l.path])).toEqual([
      ['rebound.test:9464', '/mutes'],
      ['other.test', '/mutes'],
    ]);
  });

  it('follows the config it reads: a host added to http.allowedHosts is served at once', () => {
    const http: { allowedHosts: string[] } = { allowedHosts: [] };
    const gate = createHostGate(() => http, pino({ level: 'silent' }));
    expect(gate.admits(requestFor('shortwatch:9464'))).toBe(false);
    http.allowedHosts = ['shortwatch'];
    expect(gate.admits(requestFor('shortwatch:9464'))).toBe(true);
  });
});
