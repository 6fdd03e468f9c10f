// Fails unless stickers.js exports exactly what stickers.d.ts declares (scripts/check-web.sh).
import { readFileSync } from 'node:fs';
import * as module from '../stickers.js';

const declared = new Set([...readFileSync(new URL('../stickers.d.ts', import.meta.url), 'utf8')
  .matchAll(/^export declare (?:const|class|function) (\w+)/gm)].map((m) => m[1]));
const exported = new Set(Object.keys(module));
const missing = [...declared].filter((n) => !exported.has(n));
const undeclared = [...exported].filter((n) => !declared.has(n));
if (missing.length || undeclared.length) {
  console.error(`stickers.d.ts declares what stickers.js lacks: ${missing.join(', ') || '-'}; ` +
    `stickers.js exports what stickers.d.ts lacks: ${undeclared.join(', ') || '-'}`);
  process.exit(1);
}
console.log(`web: stickers.d.ts declares the ${exported.size} exports of stickers.js`);
