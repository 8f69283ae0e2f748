/** Where a redirect goes when the asked-for target is not a plain path of the console. */
const HOME = '/';

// Tabs and newlines are dropped by browsers' URL parsers (`/\t/evil` becomes `//evil`), and a backslash is
// read as a slash: any of them, anywhere, and the target is refused rather than cleaned.
function unsafe(text: string): boolean {
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === '\\') return true;
  }
  return false;
}

/** Whether one spelling of a target is a same-origin path: `/x`, never `//host`, `/\host` or a scheme. */
function plainPath(text: string): boolean {
  return text.startsWith('/') && !text.startsWith('//') && !unsafe(text);
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * A same-origin path to return to after signing in; anything else goes home. Every decoding of the target
 * (up to three: `%252F` is `%2F` is `/`) must be a plain path too, so no layer of a proxy or browser can turn
 * it into another host; the answer is the target as the URL parser normalises it on this origin.
 */
export function safeNext(next: string | null | undefined): string {
  if (next === null || next === undefined) return HOME;
  let spelling: string | undefined = next;
  for (let depth = 0; depth < 4 && spelling !== undefined; depth++) {
    if (!plainPath(spelling)) return HOME;
    const again = decoded(spelling);
    if (again === spelling) break;
    spelling = again;
  }
  if (spelling === undefined) return HOME;
  const base = 'http://console.invalid';
  const url = new URL(next, base);
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : HOME;
}
