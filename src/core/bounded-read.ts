// Bodies are counted as they stream in: a missing or lying Content-Length cannot make us buffer more.
// Shared by the proxy (requests and the service's answers), the clients (answers) and the sandbox.

export type BoundedBody = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; why: 'too_large' | 'too_slow'; bytesRead: number };

/**
 * Reads at most `limit` bytes, all of them within `deadlineMs` when given. One byte more, or the
 * deadline, and the stream is cancelled and `ok` is false.
 */
export async function readBounded(body: ReadableStream<Uint8Array> | null, limit: number, deadlineMs?: number): Promise<BoundedBody> {
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let late = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline =
    deadlineMs === undefined
      ? undefined
      : new Promise<{ done: true; value: undefined }>((resolve) => {
          timer = setTimeout(() => {
            late = true;
            resolve({ done: true, value: undefined });
          }, deadlineMs);
        });
  const stop = (why: 'too_large' | 'too_slow'): BoundedBody => {
    // Not awaited: a stalled sender must not hold the answer back.
    reader.cancel().catch(() => undefined);
    return { ok: false, why, bytesRead: total };
  };
  try {
    for (;;) {
      const { done, value } = await (deadline === undefined ? reader.read() : Promise.race([reader.read(), deadline]));
      if (late) return stop('too_slow');
      if (done) break;
      total += value.byteLength;
      if (total > limit) return stop('too_large');
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/** True when a declared Content-Length already exceeds the limit (a cheap early refusal, never trusted alone). */
export function declaresTooLarge(headers: Headers, limit: number): boolean {
  const declared = Number(headers.get('Content-Length') ?? '');
  return Number.isFinite(declared) && declared > limit;
}
