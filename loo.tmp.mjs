import { buildWidget } from './test/bench/size-breakdown.mjs';
import { gzipSync } from 'node:zlib';
import { minify } from 'terser';
const chunk = await buildWidget({ root: process.cwd(), minify: false });
const mods = await Promise.all(Object.entries(chunk.modules).map(async ([id, m]) => ({ id: id.replace(process.cwd()+'/',''), code: (await minify(m.code ?? '', { compress: false, mangle: false })).code ?? '' })));
const all = gzipSync(mods.map(m=>m.code).join(''), {level:9}).length;
const rows = mods.map(m => [all - gzipSync(mods.filter(x=>x!==m).map(x=>x.code).join(''),{level:9}).length, m.id]);
rows.sort((a,b)=>b[0]-a[0]); for (const r of rows.slice(0,50)) console.log(r[0], r[1]);
