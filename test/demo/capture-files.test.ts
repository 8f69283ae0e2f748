import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCaptureFiles, prepareCaptureDirs, slug } from '../../src/demo/capture-files.js';

function rawMail(type: string, subject: string): Buffer {
  return Buffer.from(
    [
      'From: shortwatch@demo.invalid',
      'To: trader@demo.invalid',
      `Subject: ${subject}`,
      `X-Shortwatch-Message: ${type}`,
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>hello</p>',
      '',
    ].join('\r\n'),
  );
}

describe('capture files', () => {
  let out: string;
  beforeEach(() => {
    out = mkdtempSync(join(tmpdir(), 'shortwatch-demo-files-'));
  });
  afterEach(() => rmSync(out, { recursive: true, force: true }));

  it.each([
    ['accents and punctuation', 'Brønnøy Seafood plc: 2 changes', 'bronnoy-seafood-plc-2-changes'],
    ['café', 'Café Müller', 'cafe-muller'],
    ['cut to 40 characters, no trailing dash', `${'a'.repeat(39)} b`, 'a'.repeat(39)],
    ['nothing usable', '&&&', ''],
  ])('slug: %s', (_name, text, expected) => {
    expect(slug(text)).toBe(expected);
  });

  it('clears only the numbered files an earlier run left, and keeps anything else', () => {
    mkdirSync(join(out, 'slack'), { recursive: true });
    writeFileSync(join(out, 'slack', '0001-acme.json'), '{}');
    writeFileSync(join(out, 'slack', 'notes.txt'), 'mine');
    prepareCaptureDirs(out);
    expect(readdirSync(join(out, 'slack'))).toEqual(['notes.txt']);
    expect(readdirSync(out).sort()).toEqual(['digest', 'email', 'slack']);
  });

  it('writes Slack payloads as JSON and sorts emails from digests by their message-type header', async () => {
    prepareCaptureDirs(out);
    const files = createCaptureFiles(out);
    const payload = { text: 'Acme &amp; Co: 1 short position change', blocks: [] };
    const path = files.slack({ path: '/', payload, receivedAt: new Date(), status: 200 });
    expect(path).toBe(join(out, 'slack', '0001-acme-co.json'));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(payload);

    const alert = rawMail('events', 'GLG cut its short');
    const digest = rawMail('digest', 'Short positions digest: 3 changes');
    const first = files.mail({ raw: alert, parsed: await simpleParser(alert), receivedAt: new Date() });
    const second = files.mail({ raw: digest, parsed: await simpleParser(digest), receivedAt: new Date() });
    expect(first).toEqual({ kind: 'email', path: join(out, 'email', '0001-glg-cut-its-short.eml') });
    expect(second.kind).toBe('digest');
    expect(readdirSync(join(out, 'digest')).sort()).toEqual([
      '0001-short-positions-digest-3-changes.eml',
      '0001-short-positions-digest-3-changes.html',
    ]);
    expect(readFileSync(first.path)).toEqual(alert);
    expect(readFileSync(first.path.replace(/\.eml$/, '.html'), 'utf8')).toContain('<p>hello</p>');
    expect(files.counts).toEqual({ slack: 1, email: 1, digest: 1 });
  });
});
