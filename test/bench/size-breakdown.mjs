// What a browser file is made of (the loader dist/widget.js, the panel dist/chunks/panel.<hash>.js), by
// module and by area. The ONE place this is computed: `npm run bench` prints it and
// test/build/budget.test.ts enforces shares on the panel. It rebuilds the file in memory with its
// environment of vite.config.ts (`widget`, `panel`), the one `npm run build` uses, so what it measures is
// what ships. The panel's build reads dist/chunks (its language list): build first.
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createBuilder, minifySync, parseSync } from 'vite';

/** Raw, gzip -9 and brotli (max quality) byte counts. */
export function compressedSizes(code) {
  const bytes = Buffer.from(code);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** A module id as a project-relative path with forward slashes and no query (`?inline`). */
function projectPath(id, root) {
  const path = id.replace(/^\0/, '').replace(/\?.*$/, '');
  return relative(root, path).split(sep).join('/');
}

/** The row a module is reported under: its npm package, `styles`, or its folder under src/. */
export function groupOf(id, root) {
  if (/\.css(\?|$)/.test(id)) return 'styles';
  const path = projectPath(id, root);
  const inPackages = path.lastIndexOf('node_modules/');
  if (inPackages >= 0) {
    const [scope = '', name = ''] = path.slice(inPackages + 'node_modules/'.length).split('/');
    const pkg = scope.startsWith('@') ? `${scope}/${name}` : scope;
    return pkg;
  }
  if (!path.startsWith('src/')) return id.startsWith('\0') ? 'bundler runtime' : path;
  const parts = path.split('/');
  if (parts[1] === 'widget') return parts.length > 3 ? `src/widget/${parts[2]}` : 'src/widget (shell)';
  return `src/${parts[1]}`;
}

/**
 * Cross-cutting areas of the panel with a budget: the share of the minified bytes each may use. Measured
 * on 2026-11-21 (then in the one-file widget, 86 KB minified) at 1.7% for date handling (zone math with
 * Intl; date-fns-tz was 7.4% before), 2.1% for markdown and 10.8% for styles. The limits leave room for a
 * little growth, but not for bringing back a date library, adding a markdown library, or shipping a
 * stylesheet twice.
 */
export const AREAS = {
  'date handling': {
    limit: 0.03,
    test: (path) => /(^|\/)node_modules\/date-fns(-tz)?\//.test(path) || path === 'src/core/time.ts',
  },
  markdown: { limit: 0.03, test: (path) => /^src\/widget\/chat\/markdown/.test(path) },
  styles: { limit: 0.13, test: (path) => /\.css$/.test(path) },
};

const minifyOptions = { compress: { target: 'es2020', unused: false }, mangle: { toplevel: true } };

/**
 * One module minified on its own. Top-level names are mangled and nothing is dropped as unused
 * (other modules use it), so the lengths add up to the real bundle's within about 1%.
 */
function minifyModule(id, code) {
  if (code.trim() === '') return '';
  const result = minifySync(`${id.replace(/\?.*$/, '')}.js`, code, minifyOptions);
  if (result.errors.length > 0) throw new Error(`cannot minify ${id}: ${result.errors[0].message}`);
  return result.code;
}

/** The names a module's code declares at its top level, which is the bundle's shared scope. */
function topLevelNames(program) {
  return program.body.flatMap((statement) => {
    if (statement.type === 'VariableDeclaration')
      return statement.declarations.flatMap((d) => (d.id.type === 'Identifier' ? [d.id.name] : []));
    return statement.id?.name ? [statement.id.name] : [];
  });
}

/**
 * Each module's code with the names it uses from other modules made short ($0, $1…). In the bundle
 * they are mangled like the module's own; minified alone they would stay whole (`computed`,
 * `createHttp`), and the estimates would run about 3% high.
 */
function withShortImports(codes) {
  const parsed = codes.map((code) => ({ code, program: parseSync('module.js', code).program }));
  const declared = parsed.map(({ program }) => new Set(topLevelNames(program)));
  const short = new Map([...new Set(declared.flatMap((names) => [...names]))].map((name, i) => [name, `$${i.toString(36)}`]));
  return parsed.map(({ code, program }, i) => {
    const edits = [];
    const visit = (node, parent, key) => {
      if (node === null || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((child) => visit(child, parent, key));
      const renamed = node.type === 'Identifier' && !declared[i].has(node.name) ? short.get(node.name) : undefined;
      const propertyName =
        (parent?.type === 'MemberExpression' && key === 'property' && !parent.computed) ||
        (/^(Property|MethodDefinition|PropertyDefinition)$/.test(parent?.type) && key === 'key' && !parent.computed && !parent.shorthand);
      if (renamed && !propertyName) {
        if (code.slice(node.start, node.end) !== node.name) throw new Error(`parser offsets are not string offsets at ${node.name}`);
        edits.push([node.start, node.end, parent?.type === 'Property' && parent.shorthand ? `${node.name}:${renamed}` : renamed]);
      }
      for (const [k, child] of Object.entries(node)) if (k !== 'type') visit(child, node, k);
    };
    visit(program, undefined, undefined);
    // A shorthand property holds the same node as its key and its value: one edit per position.
    const unique = [...new Map(edits.map((edit) => [edit[0], edit])).values()].sort((a, b) => b[0] - a[0]);
    return unique.reduce((out, [start, end, text]) => out.slice(0, start) + text + out.slice(end), code);
  });
}

/**
 * Builds a browser file in memory as shipped (`environment`: `widget`, the loader, or `panel`); `minify:
 * false` and `sourcemap: true` give readable code and a map to its modules.
 */
export async function buildBrowserFile({ root, environment = 'widget', minify = true, sourcemap = false }) {
  // Vite builds for production only when NODE_ENV is unset or 'production'; vitest sets 'test'.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let result;
  try {
    // Only ever switch minifying off: the shipped minifier and its options stay as configured.
    const overrides = { write: false, ...(minify ? {} : { minify: false }), sourcemap: sourcemap ? 'hidden' : false };
    const builder = await createBuilder({
      root,
      configFile: join(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      environments: { [environment]: { build: overrides } },
    });
    result = await builder.build(builder.environments[environment]);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const chunks = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output).filter((o) => o.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`expected one chunk for ${environment}, got ${chunks.length}`);
  return chunks[0];
}

/**
 * A browser file (as buildBrowserFile) by module and group. Per module: `rendered` (after tree-shaking, before minifying) and
 * `minified` (estimated as above). Per group and area also `share` of the minified bytes and
 * `gzipSaved`: how much smaller the gzip of all modules gets without that group (leave-one-out).
 */
export async function sizeBreakdown({ root, environment = 'widget' }) {
  const chunk = await buildBrowserFile({ root, environment });
  const entries = Object.entries(chunk.modules);
  const codes = withShortImports(entries.map(([, m]) => m.code ?? ''));
  const modules = entries.map(([id, m], i) => {
    const code = minifyModule(id, codes[i] ?? '');
    return { id: projectPath(id, root), group: groupOf(id, root), rendered: m.renderedLength, minified: code.length, code };
  });
  const estimated = modules.reduce((sum, m) => sum + m.minified, 0);
  const gzipAll = gzipSync(modules.map((m) => m.code).join(''), { level: 9 }).length;

  const summarize = (name, members) => {
    const minified = members.reduce((sum, m) => sum + m.minified, 0);
    const rest = modules
      .filter((m) => !members.includes(m))
      .map((m) => m.code)
      .join('');
    return {
      name,
      modules: members.length,
      rendered: members.reduce((sum, m) => sum + m.rendered, 0),
      minified,
      share: estimated === 0 ? 0 : minified / estimated,
      gzipSaved: members.length === 0 ? 0 : gzipAll - gzipSync(rest, { level: 9 }).length,
    };
  };

  const groupNames = [...new Set(modules.map((m) => m.group))];
  const groups = groupNames
    .map((name) =>
      summarize(
        name,
        modules.filter((m) => m.group === name),
      ),
    )
    .sort((a, b) => b.minified - a.minified);
  const areas = Object.entries(AREAS).map(([name, area]) => ({
    ...summarize(
      name,
      modules.filter((m) => area.test(m.id)),
    ),
    limit: area.limit,
  }));

  return {
    code: chunk.code,
    total: compressedSizes(chunk.code),
    estimated,
    // Without each module's code: the sizes are what the report needs.
    modules: modules.map(({ code: _code, ...m }) => m).sort((a, b) => b.minified - a.minified),
    groups,
    areas,
  };
}
