import express from 'express';
import { createChatProxy } from 'agent-widget/server';
import { toNodeListener } from 'agent-widget/server/node';

const chat = toNodeListener(
  createChatProxy({
    apiKey: process.env.AGENT_API_KEY ?? '',
    baseUrl: process.env.AGENT_BASE_URL ?? '',
    agentId: 'demo-agent',
    allowedOrigins: ['https://www.example.com'],
    forwardBooking: true,
    trustProxy: Number(process.env.TRUST_PROXY ?? 0),
  }),
);

const app = express();
// Before any body parser (express.json()): the proxy reads the raw body itself.
app.all('/api/agent-chat', chat);
app.all('/api/agent-chat/booking/public/:endpoint', chat);

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${address.port}`);
});
