import { lookup } from "node:dns/promises";
import { isIP, connect as tcpConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { SECOND_MS } from "../time/units.js";
class HostUnreachableError extends Error {
  constructor(message, step, code) {
    super(message);
    this.step = step;
    this.code = code;
  }
  step;
  code;
  name = "HostUnreachableError";
}
function isHostUnreachableError(error) {
  return error instanceof HostUnreachableError;
}
const DNS_WORDS = {
  ENOTFOUND: "does not resolve",
  ENODATA: "has no address record",
  EAI_AGAIN: "could not be resolved now: the resolver did not answer"
};
const TCP_WORDS = {
  ECONNREFUSED: "refused: nothing listens there",
  EHOSTUNREACH: "failed: no route to the host",
  ENETUNREACH: "failed: no route to that network",
  ECONNRESET: "reset by the peer"
};
function codeOf(error) {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : void 0;
}
function seconds(ms) {
  return `${Math.round(ms / SECOND_MS * 10) / 10}s`;
}
async function bounded(promise, ms, onTimeout, cancel = () => {
}) {
  let timer;
  const deadline = new Promise((_, reject) => {
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
async function resolve(host, timeoutMs) {
  if (isIP(host) !== 0) return [host];
  const found = lookup(host, { all: true }).then(
    (records) => records.map((record) => record.address),
    (error) => {
      const code = codeOf(error);
      const words = (code && DNS_WORDS[code]) ?? "could not be resolved";
      throw new HostUnreachableError(`${host} ${words} (${code ?? "DNS error"})`, "dns", code);
    }
  );
  const timedOut = () => new HostUnreachableError(
    `DNS lookup of ${host} timed out after ${seconds(timeoutMs)}`,
    "dns",
    "ETIMEDOUT"
  );
  return bounded(found, timeoutMs, timedOut);
}
async function openTcp(target, addresses, timeoutMs) {
  const where = `${addresses.length === 1 && addresses[0] !== target.host ? `${target.host} (${addresses[0]})` : target.host}:${target.port}`;
  const socket = tcpConnect({ host: target.host, port: target.port, autoSelectFamily: true });
  const opened = new Promise((done, fail) => {
    socket.once("connect", () => {
      socket.on("error", () => {
      });
      done(socket);
    });
    socket.once("error", (error) => {
      const code = codeOf(error);
      const words = (code && TCP_WORDS[code]) ?? "failed";
      fail(
        new HostUnreachableError(`TCP connect to ${where} ${words} (${code ?? "socket error"})`, "tcp", code)
      );
    });
  });
  const timedOut = () => new HostUnreachableError(
    `TCP connect to ${where} timed out after ${seconds(timeoutMs)}`,
    "tcp",
    "ETIMEDOUT"
  );
  return bounded(opened, timeoutMs, timedOut, () => socket.destroy());
}
function smtpReply(socket) {
  return new Promise((resolve2, reject) => {
    let text = "";
    const onData = (chunk) => {
      text += chunk.toString("latin1");
      const lines = text.split("\r\n");
      const last = lines.findIndex((line) => /^\d{3}(?: |$)/.test(line));
      if (last < 0) return;
      socket.off("data", onData);
      socket.off("close", onClose);
      resolve2(lines.slice(0, last + 1));
    };
    const onClose = () => reject(new Error("closed"));
    socket.on("data", onData);
    socket.once("close", onClose);
  });
}
async function startTls(socket, timeoutMs) {
  const talk = async () => {
    const greeting = await smtpReply(socket);
    if (!greeting.at(-1)?.startsWith("220")) return false;
    socket.write("EHLO shortwatch-check\r\n");
    const hello = await smtpReply(socket);
    if (!hello.some((line) => /^250[- ]STARTTLS\b/i.test(line))) return false;
    socket.write("STARTTLS\r\n");
    return (await smtpReply(socket)).at(-1)?.startsWith("220") === true;
  };
  const gaveUp = () => new Error("no STARTTLS answer in time");
  return bounded(talk(), timeoutMs, gaveUp).catch(() => false);
}
async function handshake(target, socket, timeoutMs) {
  const servername = isIP(target.host) === 0 ? target.host : void 0;
  const secure = tlsConnect({ socket, ...servername ? { servername } : {}, ALPNProtocols: ["http/1.1"] });
  const done = new Promise((ok, fail) => {
    secure.once("secureConnect", () => ok());
    secure.once("error", (error) => {
      const code = codeOf(error);
      const message = `TLS with ${target.host}:${target.port}: ${error.message}${code ? ` (${code})` : ""}`;
      fail(new HostUnreachableError(message, "tls", code));
    });
  });
  const timedOut = () => new HostUnreachableError(
    `TLS handshake with ${target.host}:${target.port} timed out after ${seconds(timeoutMs)} (is it a TLS port?)`,
    "tls",
    "ETIMEDOUT"
  );
  try {
    await bounded(done, timeoutMs, timedOut);
  } finally {
    secure.destroy();
  }
}
async function reachHost(target, timeoutMs) {
  const addresses = await resolve(target.host, timeoutMs);
  const socket = await openTcp(target, addresses, timeoutMs);
  try {
    const upgraded = target.smtpStartTls === true && await startTls(socket, timeoutMs);
    if (target.tls || upgraded) await handshake(target, socket, timeoutMs);
    const tls = target.tls ? ", TLS certificate valid" : upgraded ? ", STARTTLS certificate valid" : "";
    return `${target.host}:${target.port} reached${tls}`;
  } finally {
    socket.destroy();
  }
}
export {
  HostUnreachableError,
  isHostUnreachableError,
  reachHost
};
