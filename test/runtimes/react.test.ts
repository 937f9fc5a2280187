// The README's React 19 / Next.js recipe for <agent-widget>: its TypeScript JSX declaration type-checks
// the component against @types/react (and a missing declaration is an error), and the component renders
// on the server without touching `window`: the element is defined in the browser after hydration.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const here = fileURLToPath(new URL('./react/', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = (project: string) =>
  spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });

describe('React 19: the <agent-widget> recipe', () => {
  test('the JSX declaration makes the component type-check; without it, <agent-widget> is an error', () => {
    const ok = tsc(join(here, 'tsconfig.json'));
    expect(ok.stdout + ok.stderr).toBe('');
    expect(ok.status).toBe(0);

    const dir = mkdtempSync(join(here, '.no-declaration-'));
    try {
      const config = JSON.parse(readFileSync(join(here, 'tsconfig.json'), 'utf8')) as { files: string[] };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...config, extends: undefined, files: ['../Chat.tsx'] }));
      const failed = tsc(join(dir, 'tsconfig.json'));
      expect(failed.status).not.toBe(0);
      expect(failed.stdout).toContain("Property 'agent-widget' does not exist on type 'JSX.IntrinsicElements'");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('it renders on the server to the element with its attributes, and reads no browser global', async () => {
    const source = readFileSync(join(here, 'Chat.tsx'), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { jsx: ts.JsxEmit.ReactJSX, jsxImportSource: 'react', module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    const dir = mkdtempSync(join(here, '.ssr-'));
    const file = join(dir, 'Chat.mjs');
    writeFileSync(file, outputText);
    const globals = globalThis as Record<string, unknown>;
    const saved = { window: globals.window, document: globals.document };
    try {
      delete globals.window;
      delete globals.document;
      const { Chat } = (await import(file)) as { Chat: () => unknown };
      const { createElement } = await import('react');
      const { renderToString } = await import('react-dom/server');
      const html = renderToString(createElement(Chat as never));
      expect(html).toContain(
        '<agent-widget agent-id="agent_123" api-base="https://api.example.com" chat-url="/api/agent-chat" title="Acme"',
      );
      expect(html).toContain('</agent-widget>');
    } finally {
      Object.assign(globals, saved);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
