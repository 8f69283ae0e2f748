export { DELIVERY_HEADER, deliveryFields, MESSAGE_TYPE_HEADER } from './headers.js';
export { escapeHtml } from './html.js';
export { deliveryMessageId, senderDomain } from './message-id.js';
export { renderEmail } from './render.js';
export type { RenderedEmail, RenderOptions } from './rendered.js';
export { createEmailChannel, smtpServerLabel } from './send.js';
export { smtpOutcome, toDeliveryError } from './smtp-error.js';
