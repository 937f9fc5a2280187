// The life of one e2e file: the demo server and Chromium start once before its tests and stop after.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { hasChromium, launchBrowser } from './chromium.mjs';
import { startDemoServer, type DemoServer, type DemoServerOptions } from './server';

/** describe, or describe.skip when there is no Chromium (global-setup.ts says so loudly). */
export const suite = hasChromium() ? describe : describe.skip;

export interface Demo {
  readonly browser: Browser;
  readonly server: DemoServer;
}

export function useDemo(options: DemoServerOptions): Demo {
  let browser: Browser | undefined;
  let server: DemoServer | undefined;
  beforeAll(async () => {
    if (!hasChromium()) return;
    server = await startDemoServer(options);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The demo server and Chromium start in beforeAll.');
    return value;
  };
  return {
    get browser() {
      return started(browser);
    },
    get server() {
      return started(server);
    },
  };
}
