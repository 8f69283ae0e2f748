import { redactText } from "../config/secret.js";
import { escapeHtml } from "./html.js";
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on the console's own forms.
  "referrer-policy": "same-origin",
  "cache-control": "no-store"
};
function pageSecrets(secrets) {
  return [...secrets].flatMap((s) => [s, escapeHtml(s)]);
}
function send(response, status, type, body, extra = {}, secrets = []) {
  response.writeHead(status, { "content-type": type, ...SECURITY_HEADERS, ...extra });
  response.end(secrets.length > 0 ? redactText(body, secrets) : body);
}
async function sendChunks(response, download, secrets = []) {
  response.writeHead(200, {
    "content-type": download.type,
    "content-disposition": `attachment; filename="${download.filename}"`,
    ...SECURITY_HEADERS
  });
  try {
    for await (const chunk of download.chunks) {
      const text = secrets.length > 0 ? redactText(chunk, secrets) : chunk;
      if (!response.write(text)) await new Promise((resolve) => response.once("drain", resolve));
    }
    response.end();
    return void 0;
  } catch (error) {
    response.destroy();
    return error;
  }
}
export {
  pageSecrets,
  send,
  sendChunks
};
