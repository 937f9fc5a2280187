'use client';
// A React 19 (or Next.js app router) component with the chat inline. Nothing touches `window` while
// rendering on the server: the element is defined in the browser, after hydration.
import { useEffect } from 'react';

export function Chat() {
  useEffect(() => {
    void import('agent-widget').then(({ defineElement }) => defineElement());
  }, []);
  return (
    <agent-widget
      agent-id="agent_123"
      api-base="https://api.example.com"
      chat-url="/api/agent-chat"
      title="Acme"
      style={{ display: 'block', height: 600 }}
    />
  );
}
