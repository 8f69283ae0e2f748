import { DELIVERY_HEADER, deliveryFields, MESSAGE_TYPE_HEADER } from "./headers.js";
import { escapeHtml } from "./html.js";
import { deliveryMessageId, senderDomain } from "./message-id.js";
import { renderEmail } from "./render.js";
import { createEmailChannel, smtpServerLabel } from "./send.js";
import { smtpOutcome, toDeliveryError } from "./smtp-error.js";
export {
  DELIVERY_HEADER,
  MESSAGE_TYPE_HEADER,
  createEmailChannel,
  deliveryFields,
  deliveryMessageId,
  escapeHtml,
  renderEmail,
  senderDomain,
  smtpOutcome,
  smtpServerLabel,
  toDeliveryError
};
