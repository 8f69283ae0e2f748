import { storyDocument } from "../story-document.js";
import { batchEmail } from "./render-batch.js";
import { digestEmail } from "./render-digest.js";
import { eventsEmail } from "./render-events.js";
import { renderNotice, renderTest } from "./render-notice.js";
function renderEmail(message, options) {
  const document = storyDocument(message);
  switch (document.type) {
    case "events":
      return eventsEmail(document.section, options);
    case "batch":
      return batchEmail(document, options);
    case "digest":
      return digestEmail(document);
    case "notice":
      return renderNotice(document.notice);
    case "test":
      return renderTest(document.test, options);
  }
}
export {
  renderEmail
};
