import { createChatProxy } from 'agent-widget/server';

const handler = createChatProxy({
  apiKey: Deno.env.get('AGENT_API_KEY') ?? '',
  baseUrl: Deno.env.get('AGENT_BASE_URL') ?? '',
  agentId: 'demo-agent',
  allowedOrigins: ['https://www.example.com'],
  forwardBooking: true,
});

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 8000),
    onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
  },
  (request, info) => handler(request, { ip: info.remoteAddr.hostname }),
);
