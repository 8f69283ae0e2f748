const MIN_SECRET_PART = 8;
function urlSecretParts(url) {
  const parts = [url];
  try {
    const { pathname, search, searchParams } = new URL(url);
    const values = [...searchParams.values()].flatMap((value) => [value, encodeURIComponent(value)]);
    for (const part of [pathname, search, ...values]) if (part.length >= MIN_SECRET_PART) parts.push(part);
  } catch {
  }
  return parts;
}
export {
  urlSecretParts
};
