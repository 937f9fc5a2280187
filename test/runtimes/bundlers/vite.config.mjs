// Vite's build of the app, and the list of the modules it bundled (modules.json) to count copies by.
import { writeFileSync } from 'node:fs';
import { defineConfig } from 'vite';

const bundledModules = {
  name: 'bundled-modules',
  generateBundle(_options, bundle) {
    const modules = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? output.moduleIds : []));
    writeFileSync('modules-vite.json', JSON.stringify(modules));
  },
};

export default defineConfig({ plugins: [bundledModules], logLevel: 'warn' });
