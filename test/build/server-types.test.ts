// agent-widget/server is for every runtime with fetch (Workers, Deno, Bun, Node): its built module and
// its types import no node: built-in, and a project without @types/node type-checks against them.
// The node:http adapter lives in agent-widget/server/node. npm test builds before this runs.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const read = (name: string): string => {
  if (!existsSync(dist + name)) throw new Error(`dist/${name} is missing: run npm run build first`);
  return readFileSync(dist + name, 'utf8');
};
const nodeImport = /(from\s*|import\s*\(\s*|require\s*\(\s*|reference\s+types\s*=\s*)["'](node:|node["'])/;

/** Type-checks `code` as a web-only project would: DOM and ES2022 libraries, no @types at all. */
function typeErrors(code: string): string[] {
  const file = `${dist}__consumer.ts`;
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: false,
  };
  const host = ts.createCompilerHost(options);
  const readSource = host.readFile.bind(host);
  host.readFile = (name) => (name === file ? code : readSource(name));
  host.fileExists = (
    (exists) => (name: string) =>
      name === file || exists(name)
  )(host.fileExists.bind(host));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('agent-widget/server without Node', { timeout: 30_000 }, () => {
  test('dist/server.js and dist/server.d.ts import no node: built-in', () => {
    expect(read('server.js')).not.toMatch(nodeImport);
    expect(read('server.d.ts')).not.toMatch(nodeImport);
    // The adapter is where node:http belongs: the check above would see it.
    expect(read('server-node.d.ts')).toMatch(nodeImport);
  });

  test('a Workers-style handler type-checks against dist/server.d.ts without @types/node', () => {
    const errors = typeErrors(`
      import { createChatProxy, createAgentClient, type ChatProxyOptions } from './server.js';
      const options: ChatProxyOptions = {
        apiKey: 'k', baseUrl: 'https://api.example.com', agentId: 'a', allowedOrigins: ['https://example.com'],
      };
      const proxy = createChatProxy(options);
      export default { fetch: (request: Request): Promise<Response> => proxy(request) };
      export const client = createAgentClient({ apiKey: 'k', baseUrl: 'https://api.example.com' });
    `);
    expect(errors).toEqual([]);
  });

  test('the same check sees a missing @types/node: dist/server-node.d.ts needs it', () => {
    const errors = typeErrors(`import { toNodeListener } from './server-node.js';\nexport const listener = toNodeListener;`);
    expect(errors.join('\n')).toMatch(/node:http/);
  });
});
