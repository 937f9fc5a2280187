// The <agent-widget> element in React's JSX (React 19): its attributes as docs/widget.md lists them.
import type { AgentWidgetElement } from 'agent-widget';
import type { DetailedHTMLProps, HTMLAttributes } from 'react';

type AgentWidgetAttributes = DetailedHTMLProps<HTMLAttributes<AgentWidgetElement>, AgentWidgetElement> & {
  'agent-id': string;
  'api-base': string;
  'chat-url': string;
  title?: string;
  greeting?: string;
  color?: string;
  theme?: 'light' | 'dark' | 'auto';
  locale?: string;
  persist?: 'local' | 'session' | 'none';
  view?: 'chat' | 'booking' | 'lookup';
};

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'agent-widget': AgentWidgetAttributes;
    }
  }
}
