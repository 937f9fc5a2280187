import { env } from 'cloudflare:workers';
import { createChatProxy } from 'agent-widget/server';

// Created at module scope; the options are read on the first request, when env is there.
const handler = createChatProxy(() => ({
  apiKey: env.AGENT_API_KEY,
  baseUrl: env.AGENT_BASE_URL,
  agentId: 'demo-agent',
  allowedOrigins: ['https://www.example.com'],
  forwardBooking: true,
}));

export default {
  fetch: (request) => handler(request, { ip: request.headers.get('CF-Connecting-IP') ?? undefined }),
};
