import { createChatProxy } from 'agent-widget/server';

// Options are read on the first request: `next build` imports this module without the key.
export const agentChat = createChatProxy(() => ({
  apiKey: process.env.AGENT_API_KEY ?? '',
  baseUrl: process.env.AGENT_BASE_URL ?? '',
  agentId: 'demo-agent',
  allowedOrigins: ['https://www.example.com'],
  forwardBooking: true,
  clientIp: 'vercel', // on Vercel; self-hosted behind nginx: 'x-real-ip' (see Client address)
}));
