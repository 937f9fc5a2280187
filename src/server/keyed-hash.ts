// Keyed hashes for store keys: the same on every instance given the same secret, meaningless without
// it, so a store holds no raw address or message.

const encoder = new TextEncoder();

const hex = (bytes: Uint8Array, count: number): string =>
  Array.from(bytes.subarray(0, count), (b) => b.toString(16).padStart(2, '0')).join('');

const hmacKey = (raw: BufferSource) => crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);

/**
 * HMAC-SHA-256 of a text, keyed with a key derived from `secret` for `purpose` alone (so the hashes of
 * one purpose say nothing about `secret` or another purpose's), as `bytes` bytes of hex. The key is
 * imported on first use: Workers forbid crypto work at module load.
 */
export function createKeyedHasher(secret: string, purpose: string, bytes: number): (text: string) => Promise<string> {
  let key: Promise<CryptoKey> | undefined;
  const derive = async (): Promise<CryptoKey> => {
    const derived = await crypto.subtle.sign('HMAC', await hmacKey(encoder.encode(secret)), encoder.encode(purpose));
    return hmacKey(derived);
  };
  return async (text) => {
    key ??= derive();
    return hex(new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(text))), bytes);
  };
}
