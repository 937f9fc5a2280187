// A service that echoes the API key back (in a reply, a source, an error text) must not hand it to
// anyone: the proxy's visitors and the server client's callers only ever see "[redacted]".
import { describe, expect, test } from 'vitest';
import { ApiError, createAgentClient } from '../../src/server';
import { AGENT, API_KEY, BASE_URL, chatRequest, expectNoKey, json, read, setup } from './helpers';

const SITE = 'https://shop.example/api/agent-chat';
/** The key as JSON may spell it: every character as a \u escape. */
const ESCAPED_KEY = [...API_KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('the proxy redacts the key from every upstream text it forwards', () => {
  test('in the reply, in source titles and urls, whatever field it hides in', async () => {
    const { handler } = setup({}, () =>
      json({
        success: true,
        reply: `Your key is ${API_KEY}. Header: Authorization: Bearer ${API_KEY}`,
        sources: [{ title: `Key ${API_KEY}`, url: `https://shop.example/k?key=${API_KEY}` }],
      }),
    );
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      reply: 'Your key is [redacted]. Header: Authorization: [redacted]',
      sources: [{ title: 'Key [redacted]', url: 'https://shop.example/k?key=[redacted]' }],
    });
  });

  test('when the key is spelled with JSON \\u escapes', async () => {
    const { handler } = setup(
      {},
      () =>
        new Response(`{"success":true,"reply":"echo ${ESCAPED_KEY} end"}`, {
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    const res = await read(await handler(chatRequest()));
    expect(res.body.reply).toBe('echo [redacted] end');
  });

  test('when only the secret part after sk_live_ is echoed', async () => {
    const { handler } = setup({}, () => json({ success: true, reply: `secret=${API_KEY.slice(8)}` }));
    expect((await read(await handler(chatRequest()))).body.reply).toBe('secret=[redacted]');
  });

  test.each([
    ['without its last character', API_KEY.slice(0, -1)],
    ['without its first character', API_KEY.slice(1)],
    ['as its first 8 characters', API_KEY.slice(0, 8)],
    ['as its last 8 characters', API_KEY.slice(-8)],
    ['as 12 characters from its middle', API_KEY.slice(14, 26)],
    ['in another case, after Bearer', `Bearer ${API_KEY.slice(0, -3).toUpperCase()}`],
  ])('when the upstream echoes the key %s', async (_, echoed) => {
    const { handler } = setup({}, () => json({ success: true, reply: `before ${echoed} after` }));
    expect((await read(await handler(chatRequest()))).body.reply).toBe('before [redacted] after');
  });

  test('two pieces of the key side by side become one [redacted]; 7 characters of it are left alone', async () => {
    const { handler } = setup({}, () =>
      json({ success: true, reply: `${API_KEY.slice(0, 10)}${API_KEY.slice(20)} and ${API_KEY.slice(9, 16)}` }),
    );
    expect((await read(await handler(chatRequest()))).body.reply).toBe(`[redacted] and ${API_KEY.slice(9, 16)}`);
  });

  test.each([200, 400, 409, 500])('in a forwarded booking answer with status %i', async (status) => {
    const { handler } = setup({ forwardBooking: true }, () =>
      json({ success: status === 200, error: `bad key ${API_KEY}`, config: { title: API_KEY } }, status),
    );
    const res = await read(
      await handler(chatRequest({ method: 'GET', url: `${SITE}/booking/public/config?agentId=${AGENT}`, origin: null })),
    );
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ success: status === 200, error: 'bad key [redacted]', config: { title: '[redacted]' } });
  });
});

describe('the server client redacts the key from what it hands to its caller', () => {
  const client = (reply: () => Response) =>
    createAgentClient({ apiKey: API_KEY, baseUrl: BASE_URL, maxRetries: 0, fetch: async () => reply() });

  test.each([400, 401, 403, 429, 500])('an error text of a %i echoing the key is redacted in ApiError.message', async (status) => {
    const api = client(() => json({ success: false, error: `Invalid key: Bearer ${API_KEY} (${API_KEY})` }, status));
    const error = await api.credits().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    if (!(error instanceof ApiError)) return;
    expect(error.message).toBe('Invalid key: [redacted] ([redacted])');
    // The whole chain the caller could log, including the untyped original.
    let link: unknown = error;
    while (link instanceof Error) {
      expectNoKey(link.message);
      link = link.cause;
    }
  });

  test('a chat reply echoing the key is redacted', async () => {
    const api = client(() => json({ success: true, reply: `here: ${API_KEY}`, credits: { used: 1, remaining: 2 } }));
    const reply = await api.chat({ agentId: AGENT, message: 'What is my key?' });
    expect(reply.reply).toBe('here: [redacted]');
  });
});

test('an empty 204 from the service stays an answer the client can judge', async () => {
  const api = createAgentClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    fetch: async () => new Response(null, { status: 204 }),
  });
  await expect(api.subscriptions.get()).rejects.toMatchObject({ kind: 'invalid_response', status: 204 });
});
