import { createServer } from 'node:http';
import { createChatProxy } from 'agent-widget/server';
import { toNodeListener } from 'agent-widget/server/node';

const chat = toNodeListener(
  createChatProxy({
    apiKey: process.env.AGENT_API_KEY ?? '',
    baseUrl: process.env.AGENT_BASE_URL ?? '',
    agentId: 'demo-agent',
    allowedOrigins: ['https://www.example.com'],
    forwardBooking: true,
  }),
);

const server = createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  if (pathname === '/api/agent-chat' || pathname.startsWith('/api/agent-chat/booking/public/')) return chat(req, res);
  res.writeHead(404).end();
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
