// The life of one e2e file: the demo server and Chromium start once before its tests and stop after.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { hasChromium, launchBrowser } from './chromium.mjs';
import { startDemoServer, type DemoServer, type DemoServerOptions } from './server';

/** describe, or describe.skip when there is no Chromium (global-setup.ts says so loudly). */
export const suite = hasChromium() ? describe : describe.skip;

export interface Demo {
  readonly browser: Browser;
  readonly server: DemoServer;
  /**
   * Sets the visitor's clock to the sandbox's `now` (fixed: Date.now stands still, timers run), so the
   * browser and the sandbox agree on what day it is whatever day the test runs. The one way the e2e tests
   * set a browser clock: both come from `useDemo({ now })`.
   */
  freezeClock(target: Page | BrowserContext): Promise<void>;
  /** As freezeClock, but the clock runs from the sandbox's `now` under the test's control (page.clock.runFor…). */
  installClock(target: Page | BrowserContext): Promise<void>;
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
  const sandboxNow = (): Date => {
    if (!options.now) throw new Error('useDemo({ now }) sets the time the browser clock is set to.');
    return new Date(options.now);
  };
  return {
    get browser() {
      return started(browser);
    },
    get server() {
      return started(server);
    },
    freezeClock: (target) => target.clock.setFixedTime(sandboxNow()),
    installClock: (target) => target.clock.install({ time: sandboxNow() }),
  };
}
