import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { MESSAGE_TYPE_HEADER } from '../channels/email/send.js';
import { type MailKind, plainFromMrkdwn } from './alert-lines.js';
import type { EmailScreenshots } from './email-screenshots.js';
import type { CapturedSlackPost } from './slack-capture.js';
import type { CapturedMail } from './smtp-capture.js';

/** The sub-folders of the output folder, one per kind of delivery. */
export const CAPTURE_DIRS = ['slack', 'email', 'digest'] as const;

/** Only files named like ours are ever removed, so a mistaken `--out` cannot lose anyone's files. */
const OURS = /^\d{4}-[a-z0-9-]*\.(json|eml|html|png)$/;

/** How many messages of each kind were written. */
export type CaptureCounts = Record<(typeof CAPTURE_DIRS)[number], number>;

/** Writes what the channels received under one folder: Slack payloads as JSON, emails as .eml and .html. */
export interface CaptureFiles {
  counts: CaptureCounts;
  /** Writes one Slack payload; returns the file's path. */
  slack(post: CapturedSlackPost): string;
  /**
   * Writes one email (.eml, and .html when it has an HTML part, pictured as `-375.png` and `-900.png`
   * when there are screenshots); returns its kind and the .eml path.
   */
  mail(mail: CapturedMail): { kind: MailKind; path: string };
  /** Waits for the pictures still being taken; says why none were, if so. */
  close(): Promise<string | undefined>;
}

// Letters NFKD does not take apart.
const FOLD: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th' };

/** A file-name fragment: lower-case ASCII letters and digits joined by `-`, at most 40 characters. */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[øæœßłđðþ]/g, (char) => FOLD[char] ?? char)
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
}

/** Digests are told apart by the message-type header every shortwatch email carries. */
export function mailKind(mail: ParsedMail): MailKind {
  return mail.headers.get(MESSAGE_TYPE_HEADER.toLowerCase()) === 'digest' ? 'digest' : 'email';
}

function slackTitle(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null || !('text' in payload)) return 'payload';
  return typeof payload.text === 'string' ? plainFromMrkdwn(payload.text.split(/[:\n]/)[0] ?? '') : 'payload';
}

/** Creates the folders and removes the numbered files an earlier run left in them. */
export function prepareCaptureDirs(out: string): void {
  for (const dir of CAPTURE_DIRS) {
    const path = join(out, dir);
    mkdirSync(path, { recursive: true });
    for (const name of readdirSync(path)) if (OURS.test(name)) rmSync(join(path, name));
  }
}

/**
 * Writes captures under `out` (prepared with {@link prepareCaptureDirs}), numbered in arrival order;
 * with `screenshots`, each e-mail's HTML is pictured too.
 */
export function createCaptureFiles(out: string, screenshots?: EmailScreenshots): CaptureFiles {
  const counts: CaptureCounts = { slack: 0, email: 0, digest: 0 };
  const name = (dir: keyof CaptureCounts, title: string) => {
    counts[dir] += 1;
    return join(out, dir, `${String(counts[dir]).padStart(4, '0')}-${slug(title)}`);
  };
  return {
    counts,
    slack(post) {
      const path = `${name('slack', slackTitle(post.payload))}.json`;
      writeFileSync(path, `${JSON.stringify(post.payload, null, 2)}\n`);
      return path;
    },
    mail(mail) {
      const kind = mailKind(mail.parsed);
      const base = name(kind, mail.parsed.subject ?? 'email');
      writeFileSync(`${base}.eml`, mail.raw);
      if (typeof mail.parsed.html === 'string') {
        writeFileSync(`${base}.html`, mail.parsed.html);
        screenshots?.add(base, mail.parsed.html);
      }
      return { kind, path: `${base}.eml` };
    },
    close: async () => screenshots?.close(),
  };
}
