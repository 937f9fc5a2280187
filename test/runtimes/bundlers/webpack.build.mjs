// webpack 5's production build of the app, and the list of the modules it bundled (modules-webpack.json).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import webpack from 'webpack';

const compiler = webpack({
  mode: 'production',
  context: process.cwd(),
  entry: './src/main.js',
  output: { path: resolve('dist-webpack'), clean: true },
});

compiler.run((error, stats) => {
  if (error || stats === undefined) throw error ?? new Error('webpack gave no stats');
  if (stats.hasErrors()) {
    console.error(stats.toString('errors-only'));
    process.exit(1);
  }
  const modules = stats.toJson({ all: false, modules: true, nestedModules: true }).modules ?? [];
  const names = modules.flatMap((module) => [module.nameForCondition, ...(module.modules ?? []).map((inner) => inner.nameForCondition)]);
  writeFileSync('modules-webpack.json', JSON.stringify(names.filter((name) => typeof name === 'string')));
  compiler.close(() => undefined);
});
