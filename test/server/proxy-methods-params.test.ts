// Requests shaped to slip past the checks: repeated query parameters on forwarded booking calls, and
// a method the Fetch API cannot even represent (TRACE) arriving through the Node adapter.
import { createServer, request as httpRequest } from 'node:http';
import { describe, expect, test } from 'vitest';
import { toNodeListener } from '../../src/server/node';
import { AGENT, BASE_URL, chatRequest, json, ORIGIN, read, setup } from './helpers';
import { listen } from './loopback';

const SITE = 'https://shop.example/api/agent-chat';
const CONFIG = { success: true, config: { booking_title: 'Consultation' } };

describe('forwarded booking calls take each query parameter once', () => {
  test.each([
    ['agentId twice, allowed first', `agentId=${AGENT}&agentId=agent_other`],
    ['agentId twice, allowed last', `agentId=agent_other&agentId=${AGENT}`],
    ['another parameter twice', `agentId=${AGENT}&date=2026-03-12&date=2026-03-13&durationMinutes=30`],
    ['a parameter repeated in another spelling of the same name', `agentId=${AGENT}&agent%49d=agent_other`],
  ])('%s: 400 invalid_request, nothing forwarded', async (_, query) => {
    const { handler, upstream } = setup({ forwardBooking: true }, () => json(CONFIG));
    const res = await read(await handler(chatRequest({ method: 'GET', origin: null, url: `${SITE}/booking/public/slots?${query}` })));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_request', error: expect.stringMatching(/once/) });
    expect(upstream.calls).toHaveLength(0);
  });

  test('a POST booking call is forwarded without its query string: the agent is pinned by the body', async () => {
    const { handler, upstream } = setup({ forwardBooking: true }, () => json({ success: true, message: 'Cancelled' }));
    const res = await read(
      await handler(
        chatRequest({ url: `${SITE}/booking/public/cancel?agentId=agent_other`, body: { agentId: AGENT, bookingCode: 'B-1' } }),
      ),
    );
    expect(res.status).toBe(200);
    expect(upstream.calls[0]?.url).toBe(`${BASE_URL}/booking/public/cancel`);
  });
});

/** One raw HTTP exchange with any method (fetch refuses TRACE). */
function rawRequest(origin: string, method: string, path: string) {
  return new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method, headers: { Origin: ORIGIN } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('methods the Fetch API forbids, through the Node adapter', () => {
  test.each([
    ['TRACE', '/api/agent-chat', 'POST, OPTIONS'],
    ['TRACE', '/api/agent-chat/booking/public/slots', 'GET, OPTIONS'],
    ['TRACE', '/api/agent-chat/booking/public/create', 'POST, OPTIONS'],
  ])('%s %s is 405 with Allow: %s, not 500', async (method, path, allow) => {
    const { handler } = setup({ forwardBooking: true });
    const origin = await listen(createServer(toNodeListener(handler)));
    const res = await rawRequest(origin, method, path);
    expect(res.status).toBe(405);
    expect(res.allow).toBe(allow);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, code: 'method_not_allowed' });
  });

  test('other unhandled methods answer 405 with Allow from the handler itself', async () => {
    const { handler } = setup();
    const origin = await listen(createServer(toNodeListener(handler)));
    for (const method of ['PUT', 'DELETE', 'PATCH', 'HEAD', 'PROPFIND']) {
      const res = await rawRequest(origin, method, '/api/agent-chat');
      expect(res.status, method).toBe(405);
      expect(res.allow, method).toBe('POST, OPTIONS');
    }
  });
});
