import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MESSAGE_TYPE_HEADER } from "../channels/email/send.js";
import { plainFromMrkdwn } from "./alert-lines.js";
const CAPTURE_DIRS = ["slack", "email", "digest"];
const OURS = /^\d{4}-[a-z0-9-]*\.(json|eml|html|png)$/;
const FOLD = { \u00F8: "o", \u00E6: "ae", \u0153: "oe", \u00DF: "ss", \u0142: "l", \u0111: "d", \u00F0: "d", \u00FE: "th" };
function slug(text) {
  return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[øæœßłđðþ]/g, (char) => FOLD[char] ?? char).replace(/[^a-z0-9]+/g, "-").slice(0, 40).replace(/^-+|-+$/g, "");
}
function mailKind(mail) {
  return mail.headers.get(MESSAGE_TYPE_HEADER.toLowerCase()) === "digest" ? "digest" : "email";
}
function slackTitle(payload) {
  if (typeof payload !== "object" || payload === null || !("text" in payload)) return "payload";
  return typeof payload.text === "string" ? plainFromMrkdwn(payload.text.split(/[:\n]/)[0] ?? "") : "payload";
}
function prepareCaptureDirs(out) {
  for (const dir of CAPTURE_DIRS) {
    const path = join(out, dir);
    mkdirSync(path, { recursive: true });
    for (const name of readdirSync(path)) if (OURS.test(name)) rmSync(join(path, name));
  }
}
function createCaptureFiles(out, screenshots) {
  const counts = { slack: 0, email: 0, digest: 0 };
  const name = (dir, title) => {
    counts[dir] += 1;
    return join(out, dir, `${String(counts[dir]).padStart(4, "0")}-${slug(title)}`);
  };
  return {
    counts,
    slack(post) {
      const path = `${name("slack", slackTitle(post.payload))}.json`;
      writeFileSync(path, `${JSON.stringify(post.payload, null, 2)}
`);
      return path;
    },
    mail(mail) {
      const kind = mailKind(mail.parsed);
      const base = name(kind, mail.parsed.subject ?? "email");
      writeFileSync(`${base}.eml`, mail.raw);
      if (typeof mail.parsed.html === "string") {
        writeFileSync(`${base}.html`, mail.parsed.html);
        screenshots?.add(base, mail.parsed.html);
      }
      return { kind, path: `${base}.eml` };
    },
    close: async () => screenshots?.close()
  };
}
export {
  CAPTURE_DIRS,
  createCaptureFiles,
  mailKind,
  prepareCaptureDirs,
  slug
};
