import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { renderEmail } from '../../src/channels/email/render.js';
import { createCaptureFiles, prepareCaptureDirs } from '../../src/demo/capture-files.js';
import { createEmailScreenshots } from '../../src/demo/email-screenshots.js';
import { EMAIL_SAMPLES } from './email-samples.js';
import { CHROMIUM_NOTE, SKIP_WITHOUT_CHROMIUM } from './needs-chromium.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A captured mail as the demo's SMTP server hands it over: raw and parsed. */
async function captured(html: string, subject: string) {
  const raw = Buffer.from(
    [
      'From: shortwatch@demo.invalid',
      'To: trader@demo.invalid',
      `Subject: ${subject}`,
      'X-Shortwatch-Message: events',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      html,
      '',
    ].join('\r\n'),
  );
  return { raw, parsed: await simpleParser(raw), receivedAt: new Date(0) };
}

describe.skipIf(SKIP_WITHOUT_CHROMIUM)(`demo capture files with screenshots${CHROMIUM_NOTE}`, () => {
  let out: string | undefined;
  afterEach(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('writes each e-mail as .eml, .html and a PNG at 375 and 900 px, and closes its browser', async () => {
    out = mkdtempSync(join(tmpdir(), 'shortwatch-demo-png-'));
    prepareCaptureDirs(out);
    const files = createCaptureFiles(out, createEmailScreenshots());
    const sample = EMAIL_SAMPLES.find((s) => s.name === 'events-closed');
    if (!sample) throw new Error('no events-closed sample');
    const { html } = renderEmail(sample.message, { timezone: 'UTC' });
    const { path } = files.mail(await captured(html, 'Short positions Acme plc'));
    expect(await files.close()).toBeUndefined();
    const base = path.replace(/\.eml$/, '');
    for (const width of [375, 900]) {
      const png = `${base}-${width}.png`;
      expect(existsSync(png)).toBe(true);
      expect(readFileSync(png).subarray(0, 8)).toEqual(PNG_SIGNATURE);
      // The width of a PNG is the big-endian number at byte 16.
      expect(readFileSync(png).readUInt32BE(16)).toBe(width);
    }
    // A second run clears the pictures the first one left.
    prepareCaptureDirs(out);
    expect(existsSync(`${base}-375.png`)).toBe(false);
  }, 60_000);
});
