// The browser build's Vite config, shared by `npm run build` and the size breakdown in `npm run bench`,
// so what the bench measures is exactly what ships.
import { join } from 'node:path';

export const jsx = { oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } } };

/** Modern evergreen targets, minified, CSS inlined as strings, ONE file per entry. */
export function browserBuildConfig({ root, entry, outDir, fileName, format, write = true }) {
  return {
    configFile: false,
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
      minify: true,
      cssCodeSplit: false,
      assetsInlineLimit: Number.MAX_SAFE_INTEGER,
      copyPublicDir: false,
      rollupOptions: {
        input: join(root, entry),
        output: { format, entryFileNames: fileName },
        preserveEntrySignatures: format === 'es' ? 'strict' : false,
      },
    },
  };
}
