// Checks on what `npm run build` ships (npm test builds before running this).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const read = (name: string): string => {
  const path = dist + name;
  if (!existsSync(path)) throw new Error(`dist/${name} is missing: run npm run build first`);
  return readFileSync(path, 'utf8');
};

/** The built-in languages besides English (src/widget/i18n/locales). */
const LANGUAGES = ['ar', 'de', 'es', 'fr', 'he', 'it', 'ja', 'ko', 'nl', 'pl', 'pt', 'sv', 'tr', 'zh'];

/** The loader's hard cap (README, Performance): the closed widget on every page of an owner's site. */
const LOADER_GZIP_CAP = 8 * 1024;
/** Tripwires only: a file far past these has pulled in something it should not. */
const PANEL_GZIP_TRIPWIRE = 48 * 1024;
const LANGUAGE_GZIP_TRIPWIRE = 4 * 1024;

const gzip = (code: string): number => gzipSync(code, { level: 9 }).length;
const chunkFiles = (): string[] => readdirSync(dist + 'chunks').filter((file) => file.endsWith('.js'));
const sri = (code: string): string => `sha384-${createHash('sha384').update(code).digest('base64')}`;

/** Runs a file of dist/chunks as a classic script does, and returns what it announced. */
function announced(file: string): unknown {
  let detail: unknown;
  const currentScript = { dispatchEvent: (event: { detail: unknown }) => (detail = event.detail) };
  class CustomEvent {
    constructor(
      readonly type: string,
      readonly init: { detail: unknown },
    ) {}
    get detail() {
      return this.init.detail;
    }
  }
  runInNewContext(read(`chunks/${file}`), { document: { currentScript }, CustomEvent });
  return detail;
}

describe('built files', () => {
  test(`dist/widget.js is the loader: a classic script of at most ${LOADER_GZIP_CAP} B gzip, with no import`, () => {
    for (const name of ['widget.js', 'embed.js']) {
      const loader = read(name);
      expect(gzip(loader), name).toBeLessThanOrEqual(LOADER_GZIP_CAP);
      expect(loader, name).not.toMatch(/^\s*(import|export)\s/m);
      expect(loader, name).not.toMatch(/\bimport\s*\(/);
      // The launcher is drawn with DOM calls: no Preact on the closed widget's path.
      expect(loader, name).not.toMatch(/__PREACT|preact/i);
    }
  });

  test('the panel and each language are content-hashed classic scripts next to the loader, within their tripwires', () => {
    const files = chunkFiles();
    expect(files.map((file) => file.replace(/\.[\w-]{8}\.js$/, '')).sort()).toEqual([...LANGUAGES, 'panel'].sort());
    for (const file of files) {
      const code = read(`chunks/${file}`);
      expect(code, file).not.toMatch(/^\s*(import|export)\s/m);
      expect(code, file).not.toMatch(/\bimport\s*\(/);
      expect(gzip(code), file).toBeLessThanOrEqual(file.startsWith('panel.') ? PANEL_GZIP_TRIPWIRE : LANGUAGE_GZIP_TRIPWIRE);
    }
  });

  test('the loaders name the panel with the integrity of its bytes; the panel names each language with the integrity of its bytes', () => {
    const panel = chunkFiles().find((file) => file.startsWith('panel.')) ?? '';
    for (const name of ['widget.js', 'embed.js']) {
      const loader = read(name);
      expect(loader, name).toContain(`chunks/${panel}`);
      expect(loader, name).toContain(sri(read(`chunks/${panel}`)));
      // Only the panel: the languages are named by the panel's file.
      expect(loader.match(/sha384-/g), name).toHaveLength(1);
    }
    const panelCode = read(`chunks/${panel}`);
    for (const file of chunkFiles().filter((f) => f !== panel)) {
      expect(panelCode, file).toContain(`chunks/${file}`);
      expect(panelCode, file).toContain(sri(read(`chunks/${file}`)));
    }
  });

  test('the script-tag files are ASCII only: a page served without charset=utf-8 shows "Type your message…", not "messageâ€¦"', () => {
    for (const name of ['widget.js', 'embed.js', ...chunkFiles().map((file) => `chunks/${file}`)])
      expect(read(name), name).toMatch(/^[\x00-\x7f]*$/);
  });

  test('each language file announces its dictionary, every key of it text', async () => {
    const { defaultStrings } = await import('../../src/widget/i18n');
    for (const file of chunkFiles().filter((f) => !f.startsWith('panel.'))) {
      const strings = announced(file) as Record<string, unknown>;
      expect(Object.keys(strings).sort(), file).toEqual(Object.keys(defaultStrings).sort());
      for (const text of Object.values(strings)) expect(typeof text, file).toBe('string');
    }
  });

  test('each built-in language ships as its own module (agent-widget/locales/<code>) with every key, importing nothing', async () => {
    const { defaultStrings } = await import('../../src/widget/i18n');
    const codes = readdirSync(dist + 'locales').filter((f) => f.endsWith('.js'));
    expect(codes.map((f) => f.replace('.js', '')).sort()).toEqual(LANGUAGES);
    for (const file of codes) {
      const code = read(`locales/${file}`);
      expect(code, file).not.toMatch(/^\s*import\s/m);
      const { default: strings } = (await import(dist + `locales/${file}`)) as { default: Record<string, string> };
      expect(Object.keys(strings).sort(), file).toEqual(Object.keys(defaultStrings).sort());
      expect(read(`locales/${file.replace('.js', '.d.ts')}`)).toContain('declare const strings: Strings');
    }
  });

  test('no browser file contains an API key, eval or new Function', () => {
    const browserFiles = [
      'widget.js',
      'agent-widget.js',
      'agent-widget-panel.js',
      'embed.js',
      ...chunkFiles().map((file) => `chunks/${file}`),
    ];
    for (const name of browserFiles.filter((n) => existsSync(dist + n))) {
      const code = read(name);
      expect(code, name).not.toMatch(/sk_live_/);
      expect(code, name).not.toMatch(/\beval\s*\(/);
      expect(code, name).not.toMatch(/new\s+Function\s*\(/);
    }
  });

  test('dist/server.js loads in Node and exports the proxy and the client; dist/server-node.js the adapter', async () => {
    const server = (await import(dist + 'server.js')) as Record<string, unknown>;
    expect(typeof server.createChatProxy).toBe('function');
    expect(typeof server.createAgentClient).toBe('function');
    expect(read('server.d.ts')).toContain('export');
    const node = (await import(dist + 'server-node.js')) as Record<string, unknown>;
    expect(typeof node.toNodeListener).toBe('function');
    expect(read('server-node.d.ts')).toContain('export declare function toNodeListener');
  });
});
