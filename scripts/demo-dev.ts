// `npm run dev`: Vite serves the demo pages of public/ with the widget's sources in place of the built
// files (components update in place through prefresh), and the demo API (scripts/demo-api.mjs: chat
// proxy and sandbox, loaded from src/ through Vite once at start: restart the dev server after editing
// src/server or src/sandbox).
import { readFileSync } from 'node:fs';
import type * as SandboxModule from '../src/sandbox/index';
import type * as ServerModule from '../src/server/index';
import type * as NodeModule from '../src/server/node';
import type { Plugin, ViteDevServer } from 'vite';
import { createDemoApi, demoSettings, type DemoApi } from './demo-api.mjs';

/** A demo page of public/ and its script tag for the built file, swapped for the source entry. */
interface Page {
  file: string;
  built: string;
  source: string;
}

const widgetPage: Page = {
  file: 'index.html',
  built: '<script src="/widget.js" async',
  source: '<script type="module" src="/src/widget/entries/script-tag.ts"',
};
const PAGES: Record<string, Page> = {
  '/': widgetPage,
  '/index.html': widgetPage,
  '/embed.html': {
    file: 'embed.html',
    built: '<script src="embed.js" defer>',
    source: '<script type="module" src="/src/widget/entries/iframe-page.ts">',
  },
};

function sourcePage(publicDir: string, page: Page): string {
  const html = readFileSync(`${publicDir}/${page.file}`, 'utf8');
  if (!html.includes(page.built)) throw new Error(`public/${page.file} no longer loads the widget with ${page.built}`);
  return html.replace(page.built, page.source);
}

async function loadDemoApi(dev: ViteDevServer): Promise<DemoApi> {
  const [server, node, sandbox] = await Promise.all([
    dev.ssrLoadModule('/src/server/index.ts') as Promise<typeof ServerModule>,
    dev.ssrLoadModule('/src/server/node.ts') as Promise<typeof NodeModule>,
    dev.ssrLoadModule('/src/sandbox/index.ts') as Promise<typeof SandboxModule>,
  ]);
  return createDemoApi({ server, node, sandbox }, demoSettings(process.env));
}

export function demoDevServer(): Plugin {
  return {
    name: 'agent-widget:demo-dev',
    apply: 'serve',
    configureServer(dev) {
      const api = loadDemoApi(dev);
      dev.httpServer?.once('listening', () => {
        const address = dev.httpServer?.address();
        if (address && typeof address === 'object') {
          void api.then((ready) => ready.listening(address.port, `http://localhost:${address.port}`));
        }
      });
      dev.middlewares.use((req, res, next) => {
        api.then((ready) => ready.handle(req, res, next), next);
      });
      dev.middlewares.use((req, res, next) => {
        const page = PAGES[new URL(req.url ?? '/', 'http://x').pathname];
        if (!page || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
        dev
          .transformIndexHtml(req.url ?? '/', sourcePage(dev.config.publicDir, page))
          .then((html) => {
            res.setHeader('Content-Type', 'text/html; charset=utf-8');
            res.setHeader('Cache-Control', 'no-cache');
            res.end(html);
          })
          .catch(next);
      });
    },
  };
}
