import { sizeBreakdown } from './size-breakdown.mjs';
const b = await sizeBreakdown({ root: new URL('../..', import.meta.url).pathname, environment: process.argv[2] ?? 'widget' });
console.log(b.total);
for (const m of b.modules.slice(0, 40)) console.log(m.minified, m.id);
for (const g of b.groups) console.log('group', g.name, g.minified, 'gzipSaved', g.gzipSaved);
