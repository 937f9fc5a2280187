// An owner tries the widget on their own page against `npm start`: ALLOWED_ORIGINS lets that page use the
// demo's chat and booking, the start-up lines say how, and a page not named is still refused.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoSettings } from '../../scripts/demo-api.mjs';
import { startDemoServer, type DemoServer } from '../e2e/support/server';

let server: DemoServer;

beforeAll(async () => {
  server = await startDemoServer({ allowedOrigins: 'http://localhost:8080, https://www.example.com' });
}, 30_000);
afterAll(() => server?.close());

/** A chat message as a page on `origin` sends it. */
const chatFrom = (origin: string) =>
  fetch(new URL('/api/chat', server.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify({ agentId: 'demo-agent', message: 'What are your opening hours?' }),
  });

describe('npm start with ALLOWED_ORIGINS', () => {
  test("the owner's page may use the chat and the booking calls; its answers name it for the browser", async () => {
    const answer = await chatFrom('http://localhost:8080');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
    const config = await fetch(new URL('/api/booking/public/config?agentId=demo-agent', server.url), {
      headers: { Origin: 'https://www.example.com' },
    });
    expect(config.status).toBe(200);
  });

  test('a page not named is refused, as before', async () => {
    const answer = await chatFrom('http://localhost:9999');
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ code: 'origin_not_allowed' });
  });

  test('a value that is not an origin stops the start with a line that says what to write', () => {
    expect(() => demoSettings({ ALLOWED_ORIGINS: 'localhost:8080' })).toThrow(/ALLOWED_ORIGINS: "localhost:8080" is not an origin/);
    expect(() => demoSettings({ ALLOWED_ORIGINS: 'http://localhost:8080/page' })).toThrow(/is not an origin/);
    expect(demoSettings({ ALLOWED_ORIGINS: 'http://localhost:8080/, https://a.example' }).allowedOrigins).toEqual([
      'http://localhost:8080',
      'https://a.example',
    ]);
  });
});
