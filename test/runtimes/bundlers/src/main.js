// A Preact app with signals of its own that mounts the widget in the page's language, chosen at run
// time with loadLocale: what the bundlers test builds with Vite and with webpack 5.
import { signal } from '@preact/signals';
import { h, render } from 'preact';
import { loadLocale, mount } from 'agent-widget';

const status = signal('app rendered');
render(h('p', { id: 'app' }, status), document.querySelector('#root'));

const locale = document.documentElement.lang;
loadLocale(locale).then((strings) => {
  mount(document.body, { agentId: 'demo-agent', apiBase: '/api', chatUrl: '/api/agent-chat', title: 'Acme', locale, strings });
  status.value = 'widget mounted';
});
