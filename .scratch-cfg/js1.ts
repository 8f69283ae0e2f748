import { z } from 'zod';
import { configSchema } from '../src/config/schema.js';
const js = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' });
console.log(JSON.stringify(js, null, 1));
