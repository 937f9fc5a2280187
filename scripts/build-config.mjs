// The browser build's Vite config, shared by `npm run build` and the size breakdown in `npm run bench`,
// so what the bench measures is exactly what ships.
import { join } from 'node:path';

export const jsx = { oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } } };

/** Modern evergreen targets, minified, CSS inlined as strings, ONE file per entry. */
export function browserBuildConfig({ root, entry, outDir, fileName, format, write = true }) {
  return {
    configFile: false,
    // Pinned: a NODE_ENV from the caller's shell must not turn the shipped bundle into a dev build.
    mode: 'production',
    root,
    logLevel: 'warn',
    ...jsx,
    publicDir: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir,
      write,
      emptyOutDir: false,
      target: 'es2022',
      // terser measured 660 B gzip smaller than the default minifier on this bundle.
      minify: 'terser',
      terserOptions: { compress: { passes: 3, ecma: 2020, pure_getters: true }, format: { comments: false } },
      cssCodeSplit: false,
      assetsInlineLimit: Number.MAX_SAFE_INTEGER,
      copyPublicDir: false,
      rollupOptions: {
        input: join(root, entry),
        // terser is slow by design; its timing warning is noise.
        checks: { pluginTimings: false },
        output: { format, entryFileNames: fileName },
        preserveEntrySignatures: format === 'es' ? 'strict' : false,
      },
    },
  };
}
