// Every server recipe in docs/server.md is a file that a runtime test runs: the fenced block after a
// recipe's `(test/runtimes/...` reference, or one that starts with `// <path>` under the Next.js heading,
// is that file exactly. Editing one without the other fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './support';

const docs = readFileSync(join(ROOT, 'docs/server.md'), 'utf8');

/** Each quoted recipe: the file it claims to be, and the code as the docs quote it. */
function quotedRecipes(): { file: string; code: string }[] {
  const recipes: { file: string; code: string }[] = [];
  for (const reference of docs.matchAll(/\(`(test\/runtimes\/[^`]+)`/g)) {
    const block = /```js\n([\s\S]*?)```/.exec(docs.slice((reference.index ?? 0) + reference[0].length));
    const file = reference[1] ?? '';
    if (block === null) throw new Error(`no code block follows the reference to ${file}`);
    if (!file.endsWith('/')) recipes.push({ file, code: block[1] ?? '' });
  }
  // A folder of several files (Next.js): each block names its file in its first line.
  for (const block of docs.matchAll(/```js\n\/\/ ((?:lib|app)\/\S+\.js)\n([\s\S]*?)```/g))
    recipes.push({ file: `test/runtimes/next/${block[1]}`, code: block[2] ?? '' });
  return recipes;
}

describe('docs/server.md: the recipes are the files the runtime tests run', () => {
  const recipes = quotedRecipes();

  test('every runtime is quoted: node:http, Express, three Next.js files, Workers, Deno, Bun', () => {
    expect(recipes.map(({ file }) => file).sort()).toEqual(
      [
        'test/runtimes/bun/server.mjs',
        'test/runtimes/deno/server.mjs',
        'test/runtimes/express/server.mjs',
        'test/runtimes/next/app/api/agent-chat/booking/public/[endpoint]/route.js',
        'test/runtimes/next/app/api/agent-chat/route.js',
        'test/runtimes/next/lib/agent-chat.js',
        'test/runtimes/node/server.mjs',
        'test/runtimes/workerd/worker.mjs',
      ].sort(),
    );
  });

  test.each(recipes.map(({ file, code }) => [file, code]))('%s is the quoted block, byte for byte', (file, code) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).toBe(code);
  });

  test('the recipes name the agent of the sandbox that `npm start` serves, so they answer when pointed at it', () => {
    for (const { file, code } of recipes.filter(({ code }) => code.includes('agentId')))
      expect(code, file).toContain("agentId: 'demo-agent'");
  });
});
