export { escapeHtml } from './html.js';
export { renderEmail } from './render.js';
export type { RenderedEmail, RenderOptions } from './rendered.js';
export { createEmailChannel, MESSAGE_TYPE_HEADER, smtpServerLabel } from './send.js';
export { smtpOutcome, toDeliveryError } from './smtp-error.js';
