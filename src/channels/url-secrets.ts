// Shorter parts are not secret enough to be worth blanking out of every message.
const MIN_SECRET_PART = 8;

/**
 * The parts of a webhook URL that are secret, to be blanked out of any text from outside: the whole URL,
 * its path, its query and each query value (Teams' `sig=` signs requests), raw and encoded.
 */
export function urlSecretParts(url: string): string[] {
  const parts = [url];
  try {
    const { pathname, search, searchParams } = new URL(url);
    const values = [...searchParams.values()].flatMap((value) => [value, encodeURIComponent(value)]);
    for (const part of [pathname, search, ...values]) if (part.length >= MIN_SECRET_PART) parts.push(part);
  } catch {
    // Not a URL: only the whole string is known to be secret.
  }
  return parts;
}
