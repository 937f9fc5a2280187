import { createChatProxy } from 'agent-widget/server';

// Options are read on the first request: `next build` imports this module without the key.
export const agentChat = createChatProxy(() => ({
  apiKey: process.env.AGENT_API_KEY ?? '',
  baseUrl: process.env.AGENT_BASE_URL ?? '',
  agentId: 'agent_123',
  allowedOrigins: ['https://www.example.com'],
  forwardBooking: true,
  trustProxy: 1, // Next.js (and the platform in front of it) appends the client address to X-Forwarded-For
}));
