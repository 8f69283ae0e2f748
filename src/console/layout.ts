import { html, type SafeHtml } from './html.js';

/** The sections of the console, in the order the navigation lists them. */
export const SECTIONS = [
  { path: '/', label: 'Overview' },
  { path: '/issuers', label: 'Issuers' },
  { path: '/holders', label: 'Holders' },
  { path: '/events', label: 'Events' },
  { path: '/sources', label: 'Sources' },
  { path: '/deliveries', label: 'Deliveries' },
  { path: '/subscribers', label: 'Subscribers' },
  { path: '/mutes', label: 'Mutes' },
] as const;

/** What every page shares: its title, the section it belongs to, and whether it refreshes itself. */
export interface PageFrame {
  title: string;
  section: (typeof SECTIONS)[number]['path'] | null;
  /** Seconds between background refreshes of the main area (progressive enhancement), if any. */
  refreshSeconds?: number;
  /** Set when a sign-out form is shown: the CSRF token it posts. */
  signOut?: string;
  /** A line saying what the last action did. */
  notice?: SafeHtml | string;
}

/** The whole page around `body`: navigation, title, notice, the main area, the stylesheet and script. */
export function layout(frame: PageFrame, body: SafeHtml): SafeHtml {
  const nav = SECTIONS.map(
    (s) =>
      html`<a href="${s.path}"${frame.section === s.path ? html` aria-current="page"` : ''}>${s.label}</a>`,
  );
  const refresh = frame.refreshSeconds ? html` data-refresh="${frame.refreshSeconds}"` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${frame.title} · shortwatch</title>
<link rel="stylesheet" href="/assets/console.css">
<script src="/assets/console.js" defer></script>
</head>
<body>
<header><span class="brand">shortwatch</span><nav>${nav}</nav>${
    frame.signOut
      ? html`<form method="post" action="/logout" class="signout"><input type="hidden" name="csrf" value="${frame.signOut}"><button>Sign out</button></form>`
      : ''
  }</header>
<main id="main"${refresh}>
<h1>${frame.title}</h1>
${frame.notice ? html`<p class="notice" role="status">${frame.notice}</p>` : ''}
${body}
</main>
</body>
</html>
`;
}
