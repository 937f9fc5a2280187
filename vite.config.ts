// The whole toolchain in one file.
//   npm run dev     Vite's dev server: the demo page (public/) with HMR, the chat proxy and the sandbox
//   npm run build   one environment per artefact in dist/ (see `environments` below)
//   npm test        the Vitest projects in `test.projects`: unit (node), dom (jsdom), e2e (Chromium)
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import prefresh from '@prefresh/vite';
import { generateDtsBundle } from 'dts-bundle-generator';
import { minifySync } from 'vite';
import type { BuildEnvironmentOptions, EnvironmentOptions, Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { demoDevServer } from './scripts/demo-dev.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as {
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
/** JSX compiles to Preact's automatic runtime (preact/jsx-runtime), imported only by the files that have JSX. */
const oxc = { jsx: { runtime: 'automatic', importSource: 'preact' } } as const;
/** A package name and its subpaths, e.g. `preact` and `preact/hooks`. */
const packageIds = (names: string[]): RegExp[] => names.map((n) => new RegExp(`^${n.replace(/[/.]/g, '\\$&')}(/|$)`));

/**
 * Browser files added by a <script> tag, ours or the owner's: classic scripts (a CDN needs no CORS for
 * them), modern evergreen targets, minified, CSS inlined as strings, each file self-contained.
 */
function classicScript(entry: string, fileName: string): EnvironmentOptions {
  return {
    consumer: 'client',
    // Pinned: a NODE_ENV from the caller's shell must not turn the shipped bundle into a dev build.
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      ...shared,
      target: 'es2022',
      // Browsers that know light-dark(): lightningcss adds no polyfill variables for it (we use none).
      cssTarget: ['chrome123', 'edge123', 'firefox120', 'safari17.5'],
      // terser measured 660 B gzip smaller than the default minifier on this bundle; oxc then compresses
      // and mangles what terser leaves (see oxcAfterTerser).
      minify: 'terser',
      // ascii_only: a page that serves the file without charset=utf-8 still shows every character right.
      // One pass, inlining only argument-free functions: measured 197 B gzip smaller than passes: 3 with
      // full inlining (more passes shave raw bytes but leave less repetition for gzip).
      terserOptions: {
        compress: { passes: 1, inline: 1, ecma: 2020, pure_getters: true },
        mangle: false,
        format: { comments: false, ascii_only: true },
      },
      rollupOptions: {
        input: entry,
        // terser is slow by design; its timing warning is noise.
        checks: { pluginTimings: false },
        output: { format: 'iife', entryFileNames: fileName },
      },
    },
  };
}

/** Readable ES modules for browsers and bundlers, with their export signatures kept. */
function readableModules(rollupOptions: NonNullable<BuildEnvironmentOptions['rollupOptions']> & { output: object }): EnvironmentOptions {
  return {
    // Not 'client': Vite would put its chunk-preload helper in these files, and an app that builds with Vite
    // adds its own to them ("__vitePreload has already been declared"). The app's bundler preloads its way.
    consumer: 'server',
    build: {
      ...shared,
      target: 'es2022',
      minify: false,
      rollupOptions: { ...rollupOptions, preserveEntrySignatures: 'strict', output: { format: 'es', ...rollupOptions.output } },
    },
  };
}

/** ESM for Node >= 20 (and Workers, Deno, Bun): builtins and the packages named in `external` stay imports. */
function nodeModule(entry: string, fileName: string, { external = [] as string[], banner = '' } = {}): EnvironmentOptions {
  return {
    consumer: 'server',
    resolve: { noExternal: true, external, builtins: [...builtinModules, /^node:/] },
    build: {
      ...shared,
      ssr: true,
      target: 'node20',
      minify: false,
      rollupOptions: { input: entry, output: { format: 'es', entryFileNames: fileName, banner } },
    },
  };
}

const shared = {
  outDir: 'dist',
  emptyOutDir: false,
  copyPublicDir: false,
  cssCodeSplit: false,
  assetsInlineLimit: Number.MAX_SAFE_INTEGER,
} satisfies BuildEnvironmentOptions;

/** The entries that get a bundled .d.ts: one self-contained file per package entry. */
const typedEntries = {
  'agent-widget': 'src/widget/entries/bundler.ts',
  server: 'src/server/index.ts',
  'server-node': 'src/server/node.ts',
};

/** The built-in languages besides English: src/widget/i18n/locales/<code>.ts. */
const locales = readdirSync(`${root}src/widget/i18n/locales`).map((file) => file.replace(/\.ts$/, ''));

/** dist/locales/<code>.d.ts: each dictionary is the widget's Strings (declared in agent-widget.d.ts). */
const localeTypes: Plugin = {
  name: 'agent-widget:locale-types',
  applyToEnvironment: (environment) => environment.name === 'locales',
  generateBundle() {
    for (const code of locales)
      this.emitFile({
        type: 'asset',
        fileName: `locales/${code}.d.ts`,
        source: "import type { Strings } from '../agent-widget.js';\ndeclare const strings: Strings;\nexport default strings;\n",
      });
  },
};

/**
 * In dist/agent-widget.js, loadLocale's import() of each language names the module already built as
 * dist/locales/<code>.js (`agent-widget/locales/<code>`): one file per language, whichever way it is imported.
 */
const localeModulesShared: Plugin = {
  name: 'agent-widget:locale-modules-shared',
  // Before Vite's resolver, which would bundle the source file instead.
  enforce: 'pre',
  applyToEnvironment: (environment) => environment.name === 'package',
  resolveId(source, importer) {
    const code = /^\.\/locales\/([a-z]+)$/.exec(source)?.[1];
    if (code === undefined || importer?.endsWith('/i18n/load-locale.ts') !== true) return undefined;
    return { id: `./locales/${code}.js`, external: true };
  },
};

/**
 * The terser builds (dist/widget.js, dist/embed.js) go through oxc's minifier too, which also mangles:
 * each compressor finds what the other leaves (oxc writes `x==null` and `a||=b`, drops what terser's
 * inlining left unused), 179 B gzip smaller than terser alone. Still ASCII only.
 */
const oxcAfterTerser: Plugin = {
  name: 'agent-widget:oxc-after-terser',
  applyToEnvironment: (environment) => environment.config.build.minify === 'terser',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      const result = minifySync(chunk.fileName, chunk.code, { compress: { target: 'es2022' }, codegen: { asciiOnly: true } });
      if (result.errors.length > 0) this.error(`oxc could not minify ${chunk.fileName}: ${result.errors[0]?.message}`);
      chunk.code = result.code;
    }
  },
};

/** A file next to widget.js and embed.js (dist/chunks/), content-hashed, with its integrity. */
interface ChunkFile {
  file: string;
  integrity: string;
}

/** The built file's name and its Subresource Integrity value (of the bytes written, after every minifier). */
function chunkFile(fileName: string): ChunkFile {
  const digest = createHash('sha384')
    .update(readFileSync(`${root}dist/${fileName}`))
    .digest('base64');
  return { file: fileName, integrity: `sha384-${digest}` };
}

/** dist/chunks/<name>.<hash>.js as built: buildApp builds the languages, then the panel, then the loaders. */
function builtChunk(name: string): ChunkFile {
  const found = readdirSync(`${root}dist/chunks`).filter((file) => file.startsWith(`${name}.`) && file.endsWith('.js'));
  if (found.length !== 1) throw new Error(`dist/chunks holds ${found.length} files of ${name}: each is built once, in order (buildApp)`);
  return chunkFile(`chunks/${found[0]}`);
}

const builtLanguages = (): Record<string, ChunkFile> => Object.fromEntries(locales.map((code) => [code, builtChunk(code)]));

const CHUNKS_MODULE = 'virtual:agent-widget/chunks';
const LANGUAGES_MODULE = 'virtual:agent-widget/languages';
const LANGUAGE_ENTRY = 'virtual:agent-widget/language/';

/**
 * The build's modules that name built files (declared in src/widget/entries/virtual-chunks.d.ts):
 *   virtual:agent-widget/chunks      the loaders' chunks: in a build, the panel's file and hash handed to
 *                                    the script-folder loader; under `npm run dev`, the sources through
 *                                    Vite's own dynamic import;
 *   virtual:agent-widget/languages   the panel file's list of the language files, with their hashes;
 *   virtual:agent-widget/language/<code>  each language file's entry: its dictionary, announced.
 */
function chunkManifest(): Plugin {
  let serving = false;
  return {
    name: 'agent-widget:chunk-manifest',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    resolveId(id) {
      if (id === CHUNKS_MODULE || id === LANGUAGES_MODULE || id.startsWith(LANGUAGE_ENTRY)) return `\0${id}`;
      return undefined;
    },
    load(id) {
      if (id.startsWith(`\0${LANGUAGE_ENTRY}`)) {
        const code = id.slice(LANGUAGE_ENTRY.length + 1);
        return `import strings from '${root}src/widget/i18n/locales/${code}.ts';\nimport { announceChunk } from '${root}src/widget/embedding/announce.ts';\nannounceChunk(strings);\n`;
      }
      if (id === `\0${LANGUAGES_MODULE}`) return `export const languages = ${JSON.stringify(builtLanguages())};\n`;
      if (id !== `\0${CHUNKS_MODULE}`) return undefined;
      if (serving)
        return [
          'export const createChunks = () => ({',
          "  panel: () => import('/src/widget/panel/index.ts').then((module) => module.panelModule),",
          '  language: (code) => import(/* @vite-ignore */ `/src/widget/i18n/locales/${code}.ts`).then((module) => module.default, () => undefined),',
          '});',
        ].join('\n');
      return `import { scriptFolderChunks } from '${root}src/widget/embedding/script-files.ts';\nconst panel = ${JSON.stringify(builtChunk('panel'))};\nexport const createChunks = (win, script) => scriptFolderChunks(win, script, panel);\n`;
    },
  };
}

/** The files a visitor's browser loads, with their sizes, as `npm run build` ends. */
function reportBrowserSizes(files: string[]): void {
  const rows = files.map((file) => {
    const bytes = readFileSync(`${root}dist/${file}`);
    return [file, bytes.length, gzipSync(bytes, { level: 9 }).length, brotliCompressSync(bytes).length].map(String);
  });
  const header = ['browser file', 'raw B', 'gzip -9 B', 'brotli B'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[0] ?? 0))).join('  ');
  console.log(['', line(header), ...rows.map(line), ''].join('\n'));
}

/** dist/embed.html is the iframe page as written in public/, next to the embed.js it loads. */
const embedPage: Plugin = {
  name: 'agent-widget:embed-page',
  applyToEnvironment: (environment) => environment.name === 'embed',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'embed.html', source: readFileSync(`${root}public/embed.html`) });
  },
};

/**
 * dist/<entry>.d.ts, one self-contained file per entry, written by dts-bundle-generator with TypeScript's own
 * printer (doc comments stay on their members): Vite's transforms strip the types. Chosen over
 * rolldown-plugin-dts, whose releases that print as well need Node 22 while we build and run on Node 20.
 */
function bundleDeclarations(): void {
  const entries = Object.entries(typedEntries);
  // One program for the three: the bundles come back in the order of the entries.
  const bundles = generateDtsBundle(
    entries.map(([, filePath]) => ({ filePath, output: { noBanner: true } })),
    { preferredConfigPath: `${root}tsconfig.json` },
  );
  for (const [index, [name]] of entries.entries()) {
    const text = bundles[index];
    if (text === undefined) throw new Error(`dts-bundle-generator returned no declarations for ${name}`);
    writeFileSync(`${root}dist/${name}.d.ts`, text);
  }
}

/** Tests in jsdom: the widget's own, and any other named *.dom.test.ts. */
const domTests = ['test/widget/**/*.test.{ts,tsx}', 'test/**/*.dom.test.{ts,tsx}'];

/** dist/chunks/<code>.<hash>.js: each built-in language as a classic script next to the loaders. */
const languageFiles = Object.fromEntries(
  locales.map((code) => [`language_${code}`, classicScript(`${LANGUAGE_ENTRY}${code}`, `chunks/${code}.[hash].js`)]),
);

/** Built first, in this order: the panel's file names the languages', the loaders name the panel's. */
const chunkEnvironments: Record<string, EnvironmentOptions> = {
  ...languageFiles,
  // dist/chunks/panel.<hash>.js: everything behind the launcher (shell, chat, booking, their CSS).
  panel: classicScript('src/widget/panel/script.ts', 'chunks/panel.[hash].js'),
};

const environments: Record<string, EnvironmentOptions> = {
  ...chunkEnvironments,
  // dist/widget.js: the loader the owner's script tag names (options, launcher, API); the rest from chunks/.
  widget: classicScript('src/widget/entries/script-tag.ts', 'widget.js'),
  // dist/embed.html + dist/embed.js: the iframe page, the same loader in inline mode.
  embed: classicScript('src/widget/entries/iframe-page.ts', 'embed.js'),
  // dist/agent-widget.js: `import { mount } from 'agent-widget'` for bundlers. Readable, and preact and
  // @preact/signals stay imports so the app's bundler dedupes them with its own copy.
  // The panel is a chunk of its own (agent-widget-panel.js), imported on the visitor's first intent; what
  // it shares with the entry goes to agent-widget-shared.js.
  package: readableModules({
    input: typedEntries['agent-widget'],
    external: packageIds(Object.keys(pkg.dependencies ?? {})),
    output: {
      entryFileNames: 'agent-widget.js',
      chunkFileNames: ({ isDynamicEntry }) => (isDynamicEntry ? 'agent-widget-panel.js' : 'agent-widget-shared.js'),
    },
  }),
  // dist/server.js (agent-widget/server): web-standard, no node: import. Optional peers stay external.
  server: nodeModule(typedEntries.server, 'server.js', { external: Object.keys(pkg.peerDependencies ?? {}) }),
  // dist/server-node.js (agent-widget/server/node): the node:http adapter.
  serverNode: nodeModule(typedEntries['server-node'], 'server-node.js'),
  // dist/locales/<code>.js: each built-in language as a module of its own (`agent-widget/locales/de`).
  locales: readableModules({
    input: Object.fromEntries(locales.map((code) => [code, `src/widget/i18n/locales/${code}.ts`])),
    output: { entryFileNames: 'locales/[name].js' },
  }),
  // dist/sandbox.js: the in-memory service behind `npm start` and the benchmarks.
  sandbox: nodeModule('src/sandbox/index.ts', 'sandbox.js'),
  // dist/cli.js: the package's bin, executable. Its terminal libraries are inlined, so `npx agent-widget`
  // installs nothing more.
  cli: {
    ...nodeModule('src/cli/index.ts', 'cli.js', { banner: '#!/usr/bin/env node' }),
    define: { __CLI_VERSION__: JSON.stringify(pkg.version) },
  },
};

export default defineConfig({
  root,
  oxc,
  plugins: [
    // The dev server's: component hot reload. Vitest runs a dev server too, and gets neither.
    ...(process.env.VITEST ? [] : [await prefresh(), demoDevServer()]),
    chunkManifest(),
    embedPage,
    localeTypes,
    localeModulesShared,
    oxcAfterTerser,
  ],
  environments,
  builder: {
    async buildApp(builder) {
      rmSync(`${root}dist`, { recursive: true, force: true });
      // The chunks first: the loaders' manifest names them (chunkManifest).
      for (const name of [...Object.keys(chunkEnvironments), ...Object.keys(environments).filter((name) => !(name in chunkEnvironments))]) {
        const environment = builder.environments[name];
        if (!environment) throw new Error(`no build environment ${name}`);
        await builder.build(environment);
      }
      bundleDeclarations();
      chmodSync(`${root}dist/cli.js`, 0o755);
      reportBrowserSizes(['widget.js', 'embed.js', builtChunk('panel').file, ...Object.values(builtLanguages()).map(({ file }) => file)]);
    },
  },
  // The dev pages live in public/, where Vite does not look for imports, and the panel is imported on the
  // first open: without these entries that open discovers preact, optimizes it and reloads the page.
  optimizeDeps: { entries: ['src/widget/entries/script-tag.ts', 'src/widget/entries/iframe-page.ts', 'src/widget/panel/index.ts'] },
  // `npm run dev`: 127.0.0.1 like `npm start`, so the proxy reaches the sandbox on the address it listens on.
  server: {
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.PORT ?? 5173),
    strictPort: Boolean(process.env.PORT),
  },
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        oxc,
        test: {
          name: 'unit',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [...domTests, 'test/e2e/**', ...configDefaults.exclude],
          environment: 'node',
          testTimeout: 10_000,
          restoreMocks: true,
        },
      },
      {
        oxc,
        test: {
          name: 'dom',
          // test/widget/embed/ssr.test.ts opts back into Node with a docblock: it checks there is no DOM.
          include: domTests,
          environment: 'jsdom',
          testTimeout: 10_000,
          restoreMocks: true,
        },
      },
      {
        test: {
          name: 'e2e',
          // Against the built demo: `npm test` builds first.
          include: ['test/e2e/**/*.e2e.ts'],
          globalSetup: ['test/e2e/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Two cores: one browser at a time keeps timings stable.
          fileParallelism: false,
        },
      },
    ],
  },
});
