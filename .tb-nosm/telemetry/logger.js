import { pino } from "pino";
import { PinoPretty } from "pino-pretty";
import { redactText } from "../config/secret.js";
function createLogger(options) {
  const secrets = () => [...options.secrets].flatMap(jsonForms);
  const pretty = options.format === "pretty" || options.format === "auto" && (options.isTTY ?? process.stdout.isTTY);
  const base = options.destination ?? process.stdout;
  const destination = pretty ? PinoPretty({ destination: base, sync: true, colorize: options.isTTY ?? false, ignore: "pid,hostname" }) : base;
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      hooks: { streamWrite: (line) => redactText(line, secrets()) },
      serializers: { err: DETAILED_LEVELS.has(options.level) ? pino.stdSerializers.err : briefError }
    },
    destination
  );
}
const DETAILED_LEVELS = /* @__PURE__ */ new Set(["debug", "trace"]);
function briefError(error) {
  const { stack: _stack, ...rest } = pino.stdSerializers.err(error);
  return rest;
}
function jsonForms(secret) {
  const escaped = JSON.stringify(secret).slice(1, -1);
  return escaped === secret ? [secret] : [escaped, secret];
}
function silentLogger() {
  return pino({ level: "silent" });
}
export {
  createLogger,
  silentLogger
};
