// The one URL rule shared by the reply mapping and the client's argument checks.

/** The normalised URL when `value` is an absolute http(s) URL, else undefined. */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
