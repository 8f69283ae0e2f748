import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app.js';
import type { Subscriber } from '../routing/subscriber.js';
import { type LinkPurpose, type LinkRefusal, readLink } from '../routing/subscriber-links.js';
import { type Actor, isSubscriberChangeError } from '../state/subscriber-store.js';
import { hostRules, postSourceAllowed } from './host-rules.js';
import { html, type SafeHtml } from './html.js';
import { send } from './respond.js';
import { formEdit, prefsForm } from './subscriber-prefs-form.js';

/** The public paths: a subscriber's own preference page and one-click unsubscribe, each behind a signed link. */
export const SUBSCRIBER_PATH = /^\/(me|unsubscribe)\/([A-Za-z0-9._-]{10,400})$/u;

const MAX_FORM_BYTES = 16 * 1024;

const REFUSALS: Record<LinkRefusal | 'unknown', string> = {
  malformed: 'This link is not one shortwatch made.',
  forged: 'This link is not one shortwatch made.',
  'wrong-purpose': 'This link is for another page.',
  expired: 'This link has expired.',
  revoked: 'This link was revoked.',
  unknown: 'This link belongs to no subscriber any more.',
};

/** A page for subscribers: no console navigation, nothing of anyone else. */
function subscriberPage(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${title} · shortwatch</title>
<link rel="stylesheet" href="/assets/console.css">
</head>
<body>
<header><span class="brand">shortwatch</span></header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value;
}

/** The subscriber a link names, or the words that refuse it. */
async function subscriberOf(
  app: App,
  token: string,
  purpose: LinkPurpose,
): Promise<{ ok: true; subscriber: Subscriber } | { ok: false; reason: string }> {
  const settings = app.settings.config.subscribers;
  if (!settings) return { ok: false, reason: REFUSALS.unknown };
  const read = readLink(settings.linkSecret.reveal(), token, purpose, app.ctx.now().getTime());
  if (!read.ok) return { ok: false, reason: REFUSALS[read.refusal] };
  const subscriber = await app.ctx.subscribers.get(read.claim.subscriberId);
  if (!subscriber) return { ok: false, reason: REFUSALS.unknown };
  if (subscriber.linkGeneration !== read.claim.generation) return { ok: false, reason: REFUSALS.revoked };
  return { ok: true, subscriber };
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_FORM_BYTES) break;
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Answers `/me/<token>` and `/unsubscribe/<token>`; false for any other path. No console token: the
 * signed link is the credential, and it shows and changes one subscriber only. A GET never changes
 * anything (mail scanners follow links); an unsubscribe is a POST, from the page's button or from a mail
 * client's RFC 8058 one-click (`List-Unsubscribe=One-Click`, which carries no Origin of ours).
 */
export async function answerSubscriberPage(
  app: App,
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
): Promise<boolean> {
  const match = SUBSCRIBER_PATH.exec(path);
  if (!match) return false;
  const [, kind = '', token = ''] = match;
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST') {
    send(response, 405, 'text/plain; charset=utf-8', 'method not allowed');
    return true;
  }
  const found = await subscriberOf(app, token, kind === 'me' ? 'manage' : 'unsubscribe');
  if (!found.ok) {
    const body = html`<p class="notice bad">${found.reason}</p><p>Every alert e-mail carries a fresh link; or ask the desk that set up your alerts.</p>`;
    send(response, 403, 'text/html; charset=utf-8', subscriberPage('Link not valid', body));
    return true;
  }
  const from = { who: found.subscriber.email, from: request.socket.remoteAddress ?? '' };
  const form = method === 'POST' ? await readForm(request) : new URLSearchParams();
  const result =
    kind === 'me'
      ? await managePage(app, found.subscriber, method, form, request, { ...from, via: 'link' })
      : await unsubscribePage(app, found.subscriber, method, form, { ...from, via: 'one-click' });
  send(response, result.status, 'text/html; charset=utf-8', subscriberPage(result.title, result.body));
  return true;
}

interface Answer {
  status: number;
  title: string;
  body: SafeHtml;
}

async function unsubscribePage(
  app: App,
  subscriber: Subscriber,
  method: string,
  form: URLSearchParams,
  actor: Actor,
): Promise<Answer> {
  if (method === 'GET') {
    const body = html`<p>Stop every alert to <strong>${subscriber.email}</strong>?</p>
<form method="post"><button name="confirm" value="1">Unsubscribe</button></form>`;
    return { status: 200, title: 'Unsubscribe', body };
  }
  const again = form.get('resubscribe') === '1';
  await app.ctx.subscribers.update(
    subscriber.id,
    (s) => {
      const { unsubscribedAt: _, ...rest } = s;
      return again ? rest : { ...s, unsubscribedAt: app.ctx.now().toISOString() };
    },
    actor,
    again ? 'resubscribed' : 'unsubscribed',
  );
  if (again)
    return {
      status: 200,
      title: 'Subscribed again',
      body: html`<p>Alerts to ${subscriber.email} start again with the next change.</p>`,
    };
  const body = html`<p>${subscriber.email} will receive no more alerts.</p>
<form method="post"><button name="resubscribe" value="1">Changed my mind: subscribe again</button></form>`;
  return { status: 200, title: 'Unsubscribed', body };
}

/** The subscriber's own preferences, and a POST that saves them (from this page only). */
async function managePage(
  app: App,
  subscriber: Subscriber,
  method: string,
  form: URLSearchParams,
  request: IncomingMessage,
  actor: Actor,
): Promise<Answer> {
  const now = app.ctx.now();
  if (method === 'GET') return { status: 200, title: 'My alerts', body: prefsForm(subscriber, now) };
  if (!postSourceAllowed(hostRules(app.settings.config.http), request.headers)) {
    return {
      status: 403,
      title: 'My alerts',
      body: html`<p class="notice bad">This form came from another site.</p>`,
    };
  }
  const asked = formEdit(subscriber, form);
  if (!asked.ok) {
    // Refused whole, the form as they typed it: one typo costs them no other edit.
    const body = html`<p class="notice bad" role="alert">${asked.problem}</p>${prefsForm(asked.typed, now)}`;
    return { status: 400, title: 'My alerts', body };
  }
  try {
    const saved = await app.ctx.subscribers.update(
      subscriber.id,
      (s) => ({ ...s, watch: asked.subscriber.watch, prefs: asked.subscriber.prefs }),
      actor,
      'edited',
      Number(form.get('version')),
    );
    return {
      status: 200,
      title: 'My alerts',
      body: html`<p class="notice" role="status">Saved: from the next change on.</p>${prefsForm(saved, now)}`,
    };
  } catch (error) {
    if (!isSubscriberChangeError(error)) throw error;
    return {
      status: 400,
      title: 'My alerts',
      body: html`<p class="notice bad">${error.message}</p>${prefsForm(subscriber, now)}`,
    };
  }
}
