// Builds the `agent-widget` bin: src/cli/index.ts -> <outDir>/cli.js, one ESM file for Node >= 20 with a
// shebang, Node built-ins external and everything else (picocolors, asciichart, yocto-spinner, the client)
// inlined, so `npx agent-widget` needs no runtime dependency.
//   node src/cli/build.mjs            writes dist/cli.js
// Tests call buildCli({ outDir }) to build into a temporary directory.
import { chmodSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export async function buildCli({ outDir = join(root, 'dist') } = {}) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    define: { __CLI_VERSION__: JSON.stringify(version) },
    ssr: { noExternal: true },
    build: {
      ssr: join(root, 'src/cli/index.ts'),
      outDir,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      copyPublicDir: false,
      rollupOptions: { output: { format: 'es', entryFileNames: 'cli.js', banner: '#!/usr/bin/env node' } },
    },
  });
  const file = join(outDir, 'cli.js');
  chmodSync(file, 0o755);
  return file;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`built ${await buildCli()}`);
}
