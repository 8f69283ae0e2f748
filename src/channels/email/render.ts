import { storyDocument } from '../story-document.js';
import type { Message } from '../types.js';
import { batchEmail } from './render-batch.js';
import { digestEmail } from './render-digest.js';
import { eventsEmail } from './render-events.js';
import { renderNotice, renderTest } from './render-notice.js';
import type { RenderedEmail, RenderOptions } from './rendered.js';

/** Renders any message as an email from its story document: subject, plain text and HTML. Pure. */
export function renderEmail(message: Message, options: RenderOptions): RenderedEmail {
  const document = storyDocument(message);
  switch (document.type) {
    case 'events':
      return eventsEmail(document.section, options);
    case 'batch':
      return batchEmail(document, options);
    case 'digest':
      return digestEmail(document);
    case 'notice':
      return renderNotice(document.notice);
    case 'test':
      return renderTest(document.test, options);
  }
}
