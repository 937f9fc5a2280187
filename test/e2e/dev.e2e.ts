// `npm run dev` in real Chromium: the demo page runs on the sources, the chat goes through the proxy to
// the sandbox, and an edited component shows on the page at once, without a reload and with the
// state the visitor had. The dev server runs on a copy of the project, so the edit touches nothing here.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { hasChromium, launchBrowser } from './support/chromium.mjs';
import { suite } from './support/demo';

const root = fileURLToPath(new URL('../..', import.meta.url));
let copy: string;
let vite: ChildProcess | undefined;
let browser: Browser | undefined;
let url: string;

/** Starts `vite` (what `npm run dev` runs) in `cwd` on a free port; resolves with its URL. */
function startDevServer(cwd: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0' };
  // The dev server must not believe it runs under Vitest (the config leaves hot reload out there).
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_ENV') delete env[name];
  vite = spawn(process.execPath, [join(root, 'node_modules/vite/bin/vite.js')], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const child = vite;
  let output = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`vite exited with ${code}\n${output}`)));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      // Colour codes sit around the port in Vite's banner.
      output += chunk.toString().replace(/\x1b\[[0-9;]*m/g, '');
      const match = /Local:\s+(http:\/\/\S+\/)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
  });
}

beforeAll(async () => {
  if (!hasChromium()) return;
  copy = mkdtempSync(join(tmpdir(), 'agent-widget-dev-'));
  for (const entry of ['src', 'public', 'scripts', 'vite.config.ts', 'package.json', 'tsconfig.json']) {
    cpSync(join(root, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  url = await startDevServer(copy);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (vite && vite.exitCode === null) {
    const exited = new Promise((done) => vite?.once('exit', done));
    vite.kill('SIGTERM');
    await exited;
  }
  if (copy) rmSync(copy, { recursive: true, force: true });
});

const composer = (page: Page) => page.getByRole('textbox', { name: /message/i });

suite('npm run dev', () => {
  test('the demo page runs on the sources and answers through the proxy and the sandbox', async () => {
    if (!browser) throw new Error('Chromium did not start');
    const page = await browser.newPage();
    await page.goto(url);
    expect(await page.locator('script[src="/src/widget/entries/script-tag.ts"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    await composer(page).fill('What are your opening hours?');
    await composer(page).press('Enter');
    await expect.poll(() => page.getByText('Monday to Friday:').count(), { timeout: 15_000 }).toBe(1);
    await page.close();
  });

  test('an edited component shows at once, without a reload, keeping what the visitor typed', async () => {
    if (!browser) throw new Error('Chromium did not start');
    const page = await browser.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    await composer(page).fill('a draft');
    // A reload would lose this.
    await page.evaluate(() => Object.assign(window, { loadedOnce: true }));
    const before = await composer(page).getAttribute('placeholder');

    const file = join(copy, 'src/widget/chat/Composer.tsx');
    const source = readFileSync(file, 'utf8');
    expect(source).toContain('placeholder={strings.messagePlaceholder}');
    writeFileSync(file, source.replace('placeholder={strings.messagePlaceholder}', 'placeholder="Edited while running"'));

    await expect.poll(() => composer(page).getAttribute('placeholder'), { timeout: 15_000 }).toBe('Edited while running');
    expect(before).not.toBe('Edited while running');
    expect(await page.evaluate(() => (window as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    expect(await composer(page).inputValue()).toBe('a draft');
    await page.close();
  });
});
