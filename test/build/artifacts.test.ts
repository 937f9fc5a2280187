// Checks on what `npm run build` ships (npm test builds before running this).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const read = (name: string): string => {
  const path = dist + name;
  if (!existsSync(path)) throw new Error(`dist/${name} is missing: run npm run build first`);
  return readFileSync(path, 'utf8');
};

describe('built files', () => {
  test('dist/widget.js is one self-contained classic script within the 30 KB gzip budget', () => {
    const widget = read('widget.js');
    const gzip = gzipSync(widget, { level: 9 }).length;
    expect(gzip).toBeLessThanOrEqual(30 * 1024);
    expect(widget).not.toMatch(/^\s*(import|export)\s/m);
    // No chunks: the one dynamic import is a language file, at a URL made from the script's own (i18n/languages.ts).
    expect(widget.match(/\bimport\s*\(/g)).toHaveLength(1);
    expect(widget).not.toMatch(/\bimport\s*\(\s*[`'"]/);
  });

  test('the script-tag files are ASCII only: a page served without charset=utf-8 shows "Type your message…", not "messageâ€¦"', () => {
    for (const name of ['widget.js', 'embed.js']) expect(read(name), name).toMatch(/^[\x00-\x7f]*$/);
  });

  test('each built-in language ships as its own module (agent-widget/locales/<code>) with every key, importing nothing', async () => {
    const { defaultStrings } = await import('../../src/widget/i18n');
    const codes = readdirSync(dist + 'locales').filter((f) => f.endsWith('.js'));
    expect(codes.map((f) => f.replace('.js', '')).sort()).toEqual(['ar', 'de', 'es', 'fr', 'he', 'it', 'ja', 'ko', 'nl', 'pl', 'pt', 'sv', 'tr', 'zh']);
    for (const file of codes) {
      const code = read(`locales/${file}`);
      expect(code, file).not.toMatch(/^\s*import\s/m);
      const { default: strings } = (await import(dist + `locales/${file}`)) as { default: Record<string, string> };
      expect(Object.keys(strings).sort(), file).toEqual(Object.keys(defaultStrings).sort());
      expect(read(`locales/${file.replace('.js', '.d.ts')}`)).toContain('declare const strings: Strings');
    }
  });

  test('no browser file contains an API key, eval or new Function', () => {
    for (const name of ['widget.js', 'agent-widget.js', 'embed.js'].filter((n) => existsSync(dist + n))) {
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
