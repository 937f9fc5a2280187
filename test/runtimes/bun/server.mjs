import { createChatProxy } from 'agent-widget/server';

const handler = createChatProxy({
  apiKey: process.env.AGENT_API_KEY ?? '',
  baseUrl: process.env.AGENT_BASE_URL ?? '',
  agentId: 'demo-agent',
  allowedOrigins: ['https://www.example.com'],
  forwardBooking: true,
});

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  // Bun closes a connection idle for 10 s by default: longer than the proxy's 30 s upstream deadline.
  idleTimeout: 40,
  fetch: (request, server) => handler(request, { ip: server.requestIP(request)?.address }),
});
console.log(`listening on http://${server.hostname}:${server.port}`);
