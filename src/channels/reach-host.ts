import { lookup } from 'node:dns/promises';
import { isIP, type Socket, connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { SECOND_MS } from '../time/units.js';

// `shortwatch check` proves a channel's host reachable without sending anything: the name resolves, a TCP
// connection opens, and (for TLS) the handshake completes with a certificate this machine trusts. Each
// step is bounded and a failure says which step failed and why, so "Slack is unreachable" becomes "the
// name does not resolve" or "the certificate has expired". Nothing is written on the connection.

/** Where a channel connects: a host name (or address), a port, and whether TLS starts at once. */
export interface HostTarget {
  host: string;
  port: number;
  tls: boolean;
  /** An SMTP server on a plain port: when it offers STARTTLS (nodemailer then upgrades), its TLS is checked. */
  smtpStartTls?: boolean;
}

/** The step of reaching a host that failed. */
export type ReachStep = 'dns' | 'tcp' | 'tls';

/** A host that could not be reached, with the step that failed; the message names the host, never a path. */
export class HostUnreachableError extends Error {
  override readonly name = 'HostUnreachableError';

  constructor(
    message: string,
    readonly step: ReachStep,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** Type guard for {@link HostUnreachableError}. */
export function isHostUnreachableError(error: unknown): error is HostUnreachableError {
  return error instanceof HostUnreachableError;
}

/** What the resolver and the socket say when they fail, in words for the message. */
const DNS_WORDS: Readonly<Record<string, string>> = {
  ENOTFOUND: 'does not resolve',
  ENODATA: 'has no address record',
  EAI_AGAIN: 'could not be resolved now: the resolver did not answer',
};
const TCP_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'refused: nothing listens there',
  EHOSTUNREACH: 'failed: no route to the host',
  ENETUNREACH: 'failed: no route to that network',
  ECONNRESET: 'reset by the peer',
};

function codeOf(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

function seconds(ms: number): string {
  return `${Math.round((ms / SECOND_MS) * 10) / 10}s`;
}

/** `promise`, or `onTimeout()` thrown after `ms` (and `cancel` run, to let go of a socket). */
async function bounded<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error,
  cancel = () => {},
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      cancel();
      reject(onTimeout());
    }, ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The host's addresses; an address literal is its own. */
async function resolve(host: string, timeoutMs: number): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  const found = lookup(host, { all: true }).then(
    (records) => records.map((record) => record.address),
    (error: unknown) => {
      const code = codeOf(error);
      const words = (code && DNS_WORDS[code]) ?? 'could not be resolved';
      throw new HostUnreachableError(`${host} ${words} (${code ?? 'DNS error'})`, 'dns', code);
    },
  );
  const timedOut = () =>
    new HostUnreachableError(
      `DNS lookup of ${host} timed out after ${seconds(timeoutMs)}`,
      'dns',
      'ETIMEDOUT',
    );
  return bounded(found, timeoutMs, timedOut);
}

/** One TCP connection to the first address that answers (as undici and nodemailer connect). */
async function openTcp(target: HostTarget, addresses: string[], timeoutMs: number): Promise<Socket> {
  const where = `${addresses.length === 1 && addresses[0] !== target.host ? `${target.host} (${addresses[0]})` : target.host}:${target.port}`;
  const socket = tcpConnect({ host: target.host, port: target.port, autoSelectFamily: true });
  const opened = new Promise<Socket>((done, fail) => {
    socket.once('connect', () => {
      // From here the TLS socket over it reports a failure: one unheard error must not end the process.
      socket.on('error', () => {});
      done(socket);
    });
    socket.once('error', (error) => {
      const code = codeOf(error);
      const words = (code && TCP_WORDS[code]) ?? 'failed';
      fail(
        new HostUnreachableError(`TCP connect to ${where} ${words} (${code ?? 'socket error'})`, 'tcp', code),
      );
    });
  });
  const timedOut = () =>
    new HostUnreachableError(
      `TCP connect to ${where} timed out after ${seconds(timeoutMs)}`,
      'tcp',
      'ETIMEDOUT',
    );
  return bounded(opened, timeoutMs, timedOut, () => socket.destroy());
}

/** The next SMTP reply on `socket`: its lines up to the last (`250 …`, after any `250-…`). */
function smtpReply(socket: Socket): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const lines = text.split('\r\n');
      const last = lines.findIndex((line) => /^\d{3}(?: |$)/.test(line));
      if (last < 0) return;
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(lines.slice(0, last + 1));
    };
    const onClose = () => reject(new Error('closed'));
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}

/**
 * On a plain SMTP port: the greeting, EHLO and, when the server offers it, STARTTLS, so its certificate
 * is checked as nodemailer's upgrade will. True when TLS is to follow on the socket.
 */
async function startTls(socket: Socket, timeoutMs: number): Promise<boolean> {
  const talk = async () => {
    const greeting = await smtpReply(socket);
    if (!greeting.at(-1)?.startsWith('220')) return false;
    socket.write('EHLO shortwatch-check\r\n');
    const hello = await smtpReply(socket);
    if (!hello.some((line) => /^250[- ]STARTTLS\b/i.test(line))) return false;
    socket.write('STARTTLS\r\n');
    return (await smtpReply(socket)).at(-1)?.startsWith('220') === true;
  };
  // A slow greeting or a reply the probe cannot follow is left to the SMTP verify that comes next, with
  // nodemailer's own longer greeting wait: it names what went wrong.
  const gaveUp = () => new Error('no STARTTLS answer in time');
  return bounded(talk(), timeoutMs, gaveUp).catch(() => false);
}

/** The TLS handshake over `socket`, checking the certificate against the host name as a send would. */
async function handshake(target: HostTarget, socket: Socket, timeoutMs: number): Promise<void> {
  const servername = isIP(target.host) === 0 ? target.host : undefined;
  const secure = tlsConnect({ socket, ...(servername ? { servername } : {}), ALPNProtocols: ['http/1.1'] });
  const done = new Promise<void>((ok, fail) => {
    secure.once('secureConnect', () => ok());
    secure.once('error', (error) => {
      const code = codeOf(error);
      // Node's own words for a certificate problem ("certificate has expired"), never the peer's bytes.
      const message = `TLS with ${target.host}:${target.port}: ${error.message}${code ? ` (${code})` : ''}`;
      fail(new HostUnreachableError(message, 'tls', code));
    });
  });
  const timedOut = () =>
    new HostUnreachableError(
      `TLS handshake with ${target.host}:${target.port} timed out after ${seconds(timeoutMs)} (is it a TLS port?)`,
      'tls',
      'ETIMEDOUT',
    );
  try {
    await bounded(done, timeoutMs, timedOut);
  } finally {
    secure.destroy();
  }
}

/**
 * Resolves, connects to and (for TLS) handshakes with `target`, each step within `timeoutMs`; closes the
 * connection without writing anything. Resolves to what was reached; throws a {@link HostUnreachableError}.
 */
export async function reachHost(target: HostTarget, timeoutMs: number): Promise<string> {
  const addresses = await resolve(target.host, timeoutMs);
  const socket = await openTcp(target, addresses, timeoutMs);
  try {
    const upgraded = target.smtpStartTls === true && (await startTls(socket, timeoutMs));
    if (target.tls || upgraded) await handshake(target, socket, timeoutMs);
    const tls = target.tls ? ', TLS certificate valid' : upgraded ? ', STARTTLS certificate valid' : '';
    return `${target.host}:${target.port} reached${tls}`;
  } finally {
    socket.destroy();
  }
}
