// A user's app, not ours: a Preact app with signals of its own installs the packed tarball from npm's
// way (npm pack, then npm install into a fresh folder, next to redis 6), builds with Vite and with
// webpack 5, and picks the widget's language at run time with loadLocale. The bundles must hold one
// copy of Preact, @preact/signals and @preact/signals-core (the package's ranges dedupe with the app's), each
// language must be a chunk of its own, and the Vite build must run in Chromium.
// Needs the built dist/ (`npm test` builds first) and the npm registry (npm's cache makes reruns fast).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listen } from '../server/loopback';
import { available, fixture, ROOT } from './support';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The app's own versions: Preact, the widget's declared floor; the tools, what this repository tests with. */
const APP_DEPENDENCIES = {
  preact: pkg.dependencies.preact?.replace(/^\^/, '') ?? '',
  '@preact/signals': '2.11.4',
  redis: '^6.0.0',
  vite: pkg.devDependencies.vite ?? '',
  webpack: '5.113.0',
};

/** A major the package does not declare: npm must keep a second copy for the widget, and the count must see it. */
const UNDECLARED_PREACT = '11.2.0';

const built = existsSync(join(ROOT, 'dist/agent-widget.js'));
const npmHere = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;
const ready = available('dist/ and npm', built && npmHere, 'Build first (npm run build); npm comes with Node.');

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' }, timeout: 240_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const npmInstall = (cwd: string, ...extra: string[]) =>
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...extra], cwd);

/** The installed copies of a package that a bundle took modules from: one folder each. */
function copiesOf(name: string, moduleIds: string[]): string[] {
  const folder = new RegExp(`^(.*[\\\\/]node_modules[\\\\/]${name.replace('/', '[\\\\/]')})[\\\\/]`);
  return [...new Set(moduleIds.flatMap((id) => folder.exec(id)?.[1] ?? []))];
}

const readModules = (app: string, bundler: string): string[] =>
  JSON.parse(readFileSync(join(app, `modules-${bundler}.json`), 'utf8')) as string[];

/** The built JavaScript files holding `text`. */
function filesWith(folder: string, text: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.js') && readFileSync(join(folder, file), 'utf8').includes(text),
  );
}

describe.skipIf(!ready)('an app on its own Preact, built with Vite and webpack 5 from the packed tarball', () => {
  let work = '';
  let app = '';

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'agent-widget-bundlers-'));
    const tarball = run('npm', ['pack', '--silent', '--pack-destination', work], ROOT).trim().split('\n').pop() ?? '';
    app = join(work, 'app');
    cpSync(fixture('./bundlers/'), app, { recursive: true });
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'consumer-app',
        private: true,
        type: 'module',
        dependencies: { 'agent-widget': `file:${join(work, tarball)}`, ...APP_DEPENDENCIES },
      }),
    );
    npmInstall(app);
  }, 300_000);

  afterAll(() => {
    if (work !== '') rmSync(work, { recursive: true, force: true });
  });

  test('npm installs the widget next to redis 6, the Redis store’s optional peer', () => {
    const tree = JSON.parse(run('npm', ['ls', '--json', 'redis', 'preact'], app)) as { dependencies: Record<string, { version: string }> };
    expect(tree.dependencies.redis?.version).toMatch(/^6\./);
    expect(tree.dependencies.preact?.version).toBe(APP_DEPENDENCIES.preact);
  });

  test('self-hosters resolve the browser files through the exports; the sandbox is not shipped', () => {
    const installed = join(app, 'node_modules/agent-widget/dist');
    const panel = readdirSync(join(installed, 'chunks')).find((file) => file.startsWith('panel.'));
    const specifiers = ['widget.js', 'embed.js', 'embed.html', `chunks/${panel}`].map((file) => `agent-widget/${file}`);
    const resolve = `for (const s of ${JSON.stringify(specifiers)}) console.log(fileURLToPath(import.meta.resolve(s)))`;
    const resolved = run(process.execPath, ['--input-type=module', '-e', `import { fileURLToPath } from 'node:url'; ${resolve}`], app);
    expect(resolved.trim().split('\n')).toEqual(
      ['widget.js', 'embed.js', 'embed.html', `chunks/${panel}`].map((file) => join(installed, file)),
    );
    expect(existsSync(join(installed, 'sandbox.js'))).toBe(false);
  });

  test('Vite: one Preact and one Preact Signals in the bundle, each language a chunk of its own', () => {
    run(join(app, 'node_modules/.bin/vite'), ['build'], app);
    const modules = readModules(app, 'vite');
    expect(copiesOf('preact', modules)).toHaveLength(1);
    expect(copiesOf('@preact/signals', modules)).toHaveLength(1);
    expect(copiesOf('@preact/signals-core', modules)).toHaveLength(1);
    const german = filesWith(join(app, 'dist'), 'Chat mit {title}');
    const japanese = filesWith(join(app, 'dist'), 'チャット');
    expect(german).toHaveLength(1);
    expect(japanese).toHaveLength(1);
    expect(german).not.toEqual(japanese);
  }, 120_000);

  test('webpack 5: it builds, with one Preact and one Preact Signals, each language a chunk of its own', () => {
    run(process.execPath, ['webpack.build.mjs'], app);
    const modules = readModules(app, 'webpack');
    expect(copiesOf('preact', modules)).toHaveLength(1);
    expect(copiesOf('@preact/signals', modules)).toHaveLength(1);
    expect(copiesOf('@preact/signals-core', modules)).toHaveLength(1);
    const german = filesWith(join(app, 'dist-webpack'), 'Chat mit {title}');
    expect(german).toHaveLength(1);
    expect(german[0]).not.toBe('main.js');
  }, 120_000);

  test('the Vite build in Chromium: the app renders with its Preact, and the widget, drawn with the same Preact, speaks the page’s German', async () => {
    const chromium = await import('../e2e/support/chromium.mjs');
    if (!available('Chromium', chromium.hasChromium(), 'apt-get install -y chromium')) return;
    const dist = join(app, 'dist');
    const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://app').pathname;
      const file = join(dist, path === '/' ? 'index.html' : path);
      if (!file.startsWith(dist) || !existsSync(file)) return res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    });
    const origin = await listen(server);
    const browser = await chromium.launchBrowser();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(origin);
      await page.getByText('widget mounted').waitFor();
      // Opening draws the panel with the app's own Preact: its German composer.
      await page.getByRole('button', { name: 'Chat mit Acme' }).click();
      await page.getByRole('textbox', { name: 'Nachricht' }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  test(`on Preact ${UNDECLARED_PREACT}, a major the widget does not declare, npm keeps the widget's own copy: two in the bundle`, () => {
    npmInstall(app, `preact@${UNDECLARED_PREACT}`);
    run(join(app, 'node_modules/.bin/vite'), ['build'], app);
    expect(copiesOf('preact', readModules(app, 'vite'))).toHaveLength(2);
  }, 120_000);
});
