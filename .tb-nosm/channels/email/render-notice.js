import { formatInstant } from "../time.js";
import { escapeHtml, htmlLayout, htmlParagraph } from "./html.js";
import { oneLine, toSubject } from "./text.js";
const SEVERITY_LABEL = {
  info: "Info",
  warning: "Warning",
  critical: "CRITICAL",
  resolved: "Resolved"
};
const TEST_SUBJECT = "shortwatch test message \u2014 not a real alert";
function renderNotice(message) {
  const label = SEVERITY_LABEL[message.severity];
  const title = `[shortwatch] ${label}: ${oneLine(message.title)}`;
  const footer = `shortwatch operator notice \xB7 ${oneLine(message.key)}`;
  const bodyText = message.text.replace(/\r\n?/g, "\n");
  const text = [title, "", bodyText, "", "--", footer, ""].join("\n");
  const paragraphs = bodyText.split(/\n{2,}/).map((p) => htmlParagraph(escapeHtml(p).replaceAll("\n", "<br>")));
  return {
    subject: toSubject(title),
    text,
    html: htmlLayout({ title, body: paragraphs.join("\n"), footer })
  };
}
function renderTest(message, options) {
  const sentAt = `${formatInstant(message.sentAt, options.timezone, { year: true })} (${options.timezone})`;
  const line = `This is a test message from shortwatch for channel "${oneLine(message.channel)}", sent ${sentAt}.`;
  const notReal = "It is not a real alert: no short position changed. If you can read it, delivery works.";
  const footer = "shortwatch test message";
  const text = [TEST_SUBJECT, "", line, notReal, "", "--", footer, ""].join("\n");
  const body = [htmlParagraph(escapeHtml(line)), htmlParagraph(escapeHtml(notReal))].join("\n");
  return { subject: TEST_SUBJECT, text, html: htmlLayout({ title: TEST_SUBJECT, body, footer }) };
}
export {
  TEST_SUBJECT,
  renderNotice,
  renderTest
};
