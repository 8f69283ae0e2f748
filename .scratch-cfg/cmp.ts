import { z } from 'zod';
import { configSchema as a } from '../src/config/schema.js';
import { configSchema as b } from './old/schema.js';
const strip = (v: unknown): unknown => Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'description').map(([k, x]) => [k, strip(x)])) : v;
const ja = JSON.stringify(strip(z.toJSONSchema(a, { io: 'input', unrepresentable: 'any' })));
const jb = JSON.stringify(strip(z.toJSONSchema(b, { io: 'input', unrepresentable: 'any' })));
const oa = JSON.stringify(strip(z.toJSONSchema(a, { io: 'output', unrepresentable: 'any' })));
const ob = JSON.stringify(strip(z.toJSONSchema(b, { io: 'output', unrepresentable: 'any' })));
console.log('input same', ja === jb, 'output same', oa === ob);
