import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
async function startSmtpCapture(options = {}) {
  const mails = [];
  const scripted = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "demo" });
    },
    onData(stream, _session, callback) {
      const chunks = [];
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("end", () => {
        const reply = scripted.shift();
        if (reply) {
          const error = Object.assign(new Error(reply.message), { responseCode: reply.responseCode });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const mail = { raw, parsed, receivedAt: /* @__PURE__ */ new Date() };
            mails.push(mail);
            options.onMail?.(mail);
            callback();
          },
          (error) => callback(error)
        );
      });
    }
  });
  server.on("error", () => void 0);
  await new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.server.address();
  return {
    host: "127.0.0.1",
    port,
    mails,
    script: (...replies) => scripted.push(...replies),
    close: () => new Promise((resolve) => server.close(() => resolve()))
  };
}
export {
  startSmtpCapture
};
