/** A rendered email: one-line subject, plain-text part and HTML part of the same facts. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** How to render: the zone in which instants are shown. */
export interface RenderOptions {
  timezone: string;
}
