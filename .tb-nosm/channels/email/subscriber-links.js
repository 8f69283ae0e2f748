import { escapeHtml } from "./html.js";
function unsubscribeHeaders(links) {
  return {
    "List-Unsubscribe": { prepared: true, value: `<${links.unsubscribe}>` },
    "List-Unsubscribe-Post": { prepared: true, value: "List-Unsubscribe=One-Click" }
  };
}
function withSubscriberLinks(rendered, links) {
  const text = `${rendered.text.trimEnd()}

Manage my alerts: ${links.manage}
Unsubscribe: ${links.unsubscribe}
`;
  const block = `<p class="sw-links" style="margin:16px 24px;font-size:12px;line-height:1.6"><a href="${escapeHtml(links.manage)}">Manage my alerts</a> \xB7 <a href="${escapeHtml(links.unsubscribe)}">Unsubscribe</a></p>`;
  const at = rendered.html.lastIndexOf("</body>");
  const html = at < 0 ? `${rendered.html}${block}` : `${rendered.html.slice(0, at)}${block}${rendered.html.slice(at)}`;
  return { ...rendered, text, html };
}
export {
  unsubscribeHeaders,
  withSubscriberLinks
};
