// `npm run build`: every artefact the package ships, each from one entry.
//   dist/widget.js        the script-tag widget: ONE self-contained IIFE, CSS inside
//   dist/agent-widget.js  ESM `mount()` for bundler users
//   dist/embed.html(+js)  the iframe page
//   dist/server.js        chat proxy + server client, ESM for Node >= 20 (+ server.d.ts)
//   dist/sandbox.js       the in-memory service used by `npm start` and the benchmarks
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { browserBuildConfig, jsx } from './build-config.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const quiet = { configFile: false, root, logLevel: 'warn', ...jsx };

rmSync(dist, { recursive: true, force: true });

async function browserBundle(entry, fileName, format) {
  await build(browserBuildConfig({ root, entry, outDir: dist, fileName, format }));
}

/** Node bundles: ESM, builtins external, everything else inlined so dist/*.js runs without node_modules. */
async function nodeBundle(entry, fileName) {
  await build({
    ...quiet,
    publicDir: false,
    ssr: { noExternal: true },
    build: {
      ssr: join(root, entry),
      outDir: dist,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      copyPublicDir: false,
      rollupOptions: { output: { format: "es", entryFileNames: fileName } },
    },
  });
}

const has = (p) => existsSync(join(root, p));

await browserBundle('src/widget/entry.ts', 'widget.js', 'iife');
if (has('src/widget/mount.ts')) await browserBundle('src/widget/mount.ts', 'agent-widget.js', 'es');
if (has('src/widget/embed.ts')) await browserBundle('src/widget/embed.ts', 'embed.js', 'iife');
if (has('public/embed.html')) writeFileSync(join(dist, 'embed.html'), readFileSync(join(root, 'public/embed.html')));
if (has('src/server/index.ts')) await nodeBundle('src/server/index.ts', 'server.js');
if (has('src/sandbox/index.ts')) await nodeBundle('src/sandbox/index.ts', 'sandbox.js');

// Declarations: tsc emits per-module .d.ts; relative specifiers get explicit .js so Node16/NodeNext consumers resolve them.
const typesDir = join(dist, 'types');
const declEntries = ['src/server/index.ts', 'src/widget/mount.ts'].filter(has);
if (declEntries.length > 0) {
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      ...declEntries,
      '--declaration', '--emitDeclarationOnly', '--outDir', typesDir, '--rootDir', join(root, 'src'),
      '--strict', '--skipLibCheck', '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'Bundler',
      '--jsx', 'react-jsx', '--jsxImportSource', 'preact', '--lib', 'ES2023,DOM,DOM.Iterable', '--types', 'node,vite/client',
      '--isolatedModules', '--verbatimModuleSyntax',
    ],
    { stdio: 'inherit', cwd: root },
  );
  for (const file of walk(typesDir)) {
    const text = readFileSync(file, 'utf8').replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\2/g, (all, lead, q, spec) => {
      if (/\.(js|css|json)$/.test(spec) || spec.includes('?')) return all;
      const target = resolve(dirname(file), spec);
      const suffix = existsSync(target) && statSync(target).isDirectory() ? '/index.js' : '.js';
      return `${lead}${q}${spec}${suffix}${q}`;
    });
    writeFileSync(file, text);
  }
  if (has('src/server/index.ts')) writeFileSync(join(dist, 'server.d.ts'), "export * from './types/server/index.js';\n");
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

mkdirSync(dist, { recursive: true });
const widget = readFileSync(join(dist, 'widget.js'));
console.log(
  `built ${relative(root, dist)}: widget.js ${widget.length} B, ${gzipSync(widget, { level: 9 }).length} B gzip` +
    ` (budget 30720, goal 20480)`,
);
