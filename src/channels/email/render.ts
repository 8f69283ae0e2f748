import { displayMessage } from '../format.js';
import type { Message } from '../types.js';
import { renderBatch } from './render-batch.js';
import { renderDigest } from './render-digest.js';
import { renderEvents } from './render-events.js';
import { renderNotice, renderTest } from './render-notice.js';
import type { RenderedEmail, RenderOptions } from './rendered.js';

/** Renders any message as an email: subject, plain text and HTML, names made displayable first. Pure. */
export function renderEmail(message: Message, options: RenderOptions): RenderedEmail {
  return renderDisplayable(displayMessage(message), options);
}

function renderDisplayable(message: Message, options: RenderOptions): RenderedEmail {
  switch (message.type) {
    case 'events':
      return renderEvents(message, options);
    case 'batch':
      return renderBatch(message, options);
    case 'digest':
      return renderDigest(message);
    case 'notice':
      return renderNotice(message);
    case 'test':
      return renderTest(message, options);
  }
}
