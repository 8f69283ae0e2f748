/**
 * Generates docs/configuration.md from the zod config schema (src/config/schema/): each key's `.describe()`
 * string is the one source of its text, so the reference cannot drift from the code.
 * Usage: `npx tsx scripts/config-docs.ts` writes the file; `--check` exits 1 when it is out of date.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the docs quote ${VAR} config placeholders
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { isConfigError } from '../src/config/config-error.js';
import { parseConfig } from '../src/config/load.js';
import { configSchema, duration, FILE_SECRET_KEYS, secret } from '../src/config/schema.js';

type Json = z.core.JSONSchema.JSONSchema;

/** One documented key of the config file. */
export interface KeyDoc {
  /** Dotted key path with `[]` for list items, e.g. `channels[].filter.minValue`. */
  path: string;
  /** Top-level key the path belongs to (its section in the document). */
  section: string;
  /** Channel kind for keys only that kind accepts; undefined for keys every variant shares. */
  kind?: string;
  /** Readable type: `secret`, `duration`, `integer, 0–10`, `` `slack` | `email` ``… */
  type: string;
  /** Must be given (when its parent object is given). */
  required: boolean;
  /** Sibling keys of which exactly one must be given (watchlist `id` or `name`). */
  oneOf?: string[];
  /** The default, in its YAML input form; undefined when the key is simply unset. */
  default?: unknown;
  description: string;
  /** Set on the synthetic `<key>File` row: the secret key it can replace. */
  fileFor?: string;
}

const TYPE_MARK = 'x-shortwatch-type';
const DOCS_URL = new URL('../docs/configuration.md', import.meta.url);

// Which named building block a schema is made of; clones made by .describe() share their def.
function derivesFrom(schema: z.core.$ZodType, target: z.core.$ZodType): boolean {
  let current: z.core.$ZodType | undefined = schema;
  while (current !== undefined) {
    if (current._zod.def === target._zod.def) return true;
    // A refined value piped into the target (the console token) is the target too.
    if (current instanceof z.ZodPipe)
      return derivesFrom(current.in, target) || derivesFrom(current.out, target);
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault
    ) {
      current = current.unwrap();
    } else {
      current = current._zod.parent;
    }
  }
  return false;
}

/** The schema as JSON Schema (input side), with secrets and durations marked and every default kept. */
export function configJsonSchema(): Json {
  return z.toJSONSchema(configSchema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (derivesFrom(zodSchema, secret)) jsonSchema[TYPE_MARK] = 'secret';
      else if (derivesFrom(zodSchema, duration)) jsonSchema[TYPE_MARK] = 'duration';
      // zod drops input-side defaults of schemas holding a transform (e.g. `channels: []`); restore them.
      if (zodSchema instanceof z.ZodDefault && jsonSchema.default === undefined) {
        jsonSchema.default = structuredClone(zodSchema.def.defaultValue);
      }
    },
  });
}

interface Walk {
  section: string;
  kind?: string;
  rows: KeyDoc[];
  kinds: Map<string, string>;
}

function isObject(node: unknown): node is Json {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

function propertiesOf(node: Json): [string, Json][] {
  return Object.entries(node.properties ?? {}).filter((entry): entry is [string, Json] => isObject(entry[1]));
}

function addKey(key: string, node: Json, prefix: string, walk: Walk, extra: Partial<KeyDoc>): void {
  const path = prefix ? `${prefix}.${key}` : key;
  const section = prefix ? walk.section : key;
  const here = { ...walk, section };
  walk.rows.push({
    path,
    section,
    ...(walk.kind === undefined ? {} : { kind: walk.kind }),
    type: typeText(node),
    required: false,
    ...(node.default === undefined ? {} : { default: node.default }),
    description: node.description ?? '',
    ...extra,
  });
  if (node[TYPE_MARK] === 'secret' && FILE_SECRET_KEYS.some((k) => k === key)) {
    walk.rows.push({
      path: `${path}File`,
      section,
      ...(walk.kind === undefined ? {} : { kind: walk.kind }),
      type: 'file path',
      required: false,
      description: `Reads \`${key}\` from this file instead (one trailing newline stripped); give \`${key}\` or \`${key}File\`, not both.`,
      fileFor: key,
    });
  }
  addChildren(node, path, here);
}

function addObject(node: Json, prefix: string, walk: Walk): void {
  const required = new Set(node.required ?? []);
  for (const [key, child] of propertiesOf(node))
    addKey(key, child, prefix, walk, { required: required.has(key) });
}

function addChildren(node: Json, path: string, walk: Walk): void {
  // A key of several forms (`watchlist`: `all` or a list) documents what each form holds under it.
  for (const form of node.anyOf ?? []) if (isObject(form)) addChildren(form, path, walk);
  if (node.properties) addObject(node, path, walk);
  const items = Array.isArray(node.items) ? undefined : node.items;
  if (!isObject(items)) return;
  if (items.properties) addObject(items, `${path}[]`, walk);
  const variants = items.oneOf ?? items.anyOf;
  if (variants) addVariants(variants, `${path}[]`, walk);
}

function constOf(node: Json | boolean | undefined): string | undefined {
  return isObject(node) && typeof node.const === 'string' ? node.const : undefined;
}

function propertyOf(variant: Json, key: string): Json | undefined {
  const node = variant.properties?.[key];
  return isObject(node) ? node : undefined;
}

function requires(variant: Json, key: string): boolean {
  return variant.required?.includes(key) === true;
}

// The same schema in every variant: documented once.
function isShared(variants: Json[], key: string): boolean {
  const [first, ...rest] = variants.map((v) => JSON.stringify(propertyOf(v, key)));
  return first !== undefined && rest.every((other) => other === first);
}

// Variants with a key that is a constant in each (a channel's `kind`) are documented per kind: the shared
// keys once, then each kind's own keys in its own order.
function addKinds(variants: Json[], discriminator: string, path: string, walk: Walk): void {
  const kinds = variants.map((v) => constOf(v.properties?.[discriminator]) ?? '');
  variants.forEach((v, i) => {
    walk.kinds.set(kinds[i] ?? '', v.description ?? '');
  });
  const [first] = variants;
  const tag = first && propertyOf(first, discriminator);
  if (!first || !tag) return;
  addKey(discriminator, { ...tag, const: undefined, enum: kinds }, path, walk, {
    required: variants.every((v) => requires(v, discriminator)),
  });
  const keys = propertiesOf(first).map(([key]) => key);
  const shared = keys.filter((key) => key !== discriminator && isShared(variants, key));
  for (const key of shared) {
    const node = propertyOf(first, key);
    if (node) addKey(key, node, path, walk, { required: requires(first, key) });
  }
  variants.forEach((variant, i) => {
    for (const [key, node] of propertiesOf(variant)) {
      if (key === discriminator || shared.includes(key)) continue;
      addKey(key, node, path, { ...walk, kind: kinds[i] ?? '' }, { required: requires(variant, key) });
    }
  });
}

// Variants without a tag (a watchlist entry by `id` or by `name`): keys required in some variants
// only are alternatives, of which one must be given.
function addAlternatives(variants: Json[], path: string, walk: Walk): void {
  const keys = [...new Set(variants.flatMap((v) => propertiesOf(v).map(([key]) => key)))];
  const oneOf = keys.filter(
    (k) => variants.some((v) => requires(v, k)) && !variants.every((v) => requires(v, k)),
  );
  const ordered = [...oneOf, ...keys.filter((k) => !oneOf.includes(k))];
  for (const key of ordered) {
    const node = variants.map((v) => propertyOf(v, key)).find((n) => n !== undefined);
    if (!node) continue;
    const required = variants.every((v) => requires(v, key));
    addKey(key, node, path, walk, oneOf.includes(key) ? { required, oneOf } : { required });
  }
}

function addVariants(variants: Json[], path: string, walk: Walk): void {
  const [first] = variants;
  const discriminator = propertiesOf(first ?? {})
    .map(([key]) => key)
    .find((key) => variants.every((v) => constOf(v.properties?.[key]) !== undefined));
  if (discriminator) addKinds(variants, discriminator, path, walk);
  else addAlternatives(variants, path, walk);
}

/** Every key of the config file, in schema order, with `<key>File` rows after each secret key. */
export function configKeyDocs(): {
  keys: KeyDoc[];
  kinds: Map<string, string>;
  sections: Map<string, string>;
} {
  const root = configJsonSchema();
  const walk: Walk = { section: '', rows: [], kinds: new Map() };
  addObject(root, '', walk);
  const sections = new Map(propertiesOf(root).map(([key, node]) => [key, node.description ?? '']));
  return { keys: walk.rows, kinds: walk.kinds, sections };
}

function code(value: unknown): string {
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

function numberText(type: string, node: Json): string {
  const bounds: string[] = [];
  const max = node.maximum !== undefined && node.maximum < Number.MAX_SAFE_INTEGER ? node.maximum : undefined;
  if (node.minimum !== undefined && max !== undefined) bounds.push(`${node.minimum}–${max}`);
  else {
    if (node.minimum !== undefined) bounds.push(`≥ ${node.minimum}`);
    if (typeof node.exclusiveMinimum === 'number') bounds.push(`> ${node.exclusiveMinimum}`);
    if (max !== undefined) bounds.push(`≤ ${max}`);
  }
  return [type, ...bounds].join(', ');
}

function stringText(node: Json): string {
  if (node.format === 'uri') return 'URL';
  if (node.pattern) return `string matching ${code(node.pattern)}`;
  if (node.minLength === 1) return 'non-empty string';
  if (node.minLength) return `string, at least ${node.minLength} characters`;
  return 'string';
}

function typeText(node: Json): string {
  const mark = node[TYPE_MARK];
  if (typeof mark === 'string') return mark;
  if (node.const !== undefined) return code(node.const);
  if (node.enum) return node.enum.map(code).join(' | ');
  const union = node.anyOf ?? node.oneOf;
  if (union) return [...new Set(union.map(typeText))].join(' or ');
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  if (types.length > 1) return types.join(' or ');
  const [type] = types;
  if (type === 'array') {
    const items = isObject(node.items) ? typeText(node.items) : 'any';
    const plural = items.replace(/^(non-empty )?(string|number|integer|boolean|object)\b/, '$1$2s');
    const list = `list of ${plural.includes(',') && node.minItems ? `(${plural})` : plural}`;
    return node.minItems
      ? `${list}, at least ${node.minItems} ${node.minItems === 1 ? 'item' : 'items'}`
      : list;
  }
  if (type === 'string') return stringText(node);
  if (type === 'integer' || type === 'number') return numberText(type, node);
  return type ?? 'any';
}

function yamlValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(yamlValue).join(', ')}]`;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

function defaultCell(key: KeyDoc): string {
  if (key.oneOf) return `**required**: one of ${key.oneOf.map(code).join(', ')}`;
  if (key.required) return '**required**';
  return key.default === undefined ? '—' : code(yamlValue(key.default));
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

function table(keys: KeyDoc[]): string[] {
  return [
    '| Key | Type | Default | Description |',
    '|---|---|---|---|',
    ...keys.map(
      (k) => `| ${cell(code(k.path))} | ${cell(k.type)} | ${cell(defaultCell(k))} | ${cell(k.description)} |`,
    ),
  ];
}

// A real loader error, so the sample in the intro is exactly what users see.
function sampleError(): string {
  const text = [
    'upstream: { baseUrl: https://shorts.example.com/api, apiKey: "${SHORTWATCH_API_KEY}" }',
    'poll: { interval: 5mins }',
    'channels:',
    '  - { name: desk, kind: slack, webhookURL: "${SLACK_WEBHOOK_URL}" }',
    '  - { name: daily, kind: console, mode: digest, schedule: "30 7 * * 1-5", timezone: Europe/Londn }',
  ].join('\n');
  const env = { SHORTWATCH_API_KEY: 'sample-key', SLACK_WEBHOOK_URL: 'https://hooks.example.com/sample' };
  try {
    parseConfig(text, 'config/shortwatch.yaml', env, () => '');
  } catch (error) {
    if (isConfigError(error)) return error.message;
  }
  throw new Error('the sample config unexpectedly parsed');
}

function intro(keys: KeyDoc[]): string[] {
  const secrets = keys
    .filter((k) => k.type === 'secret')
    .map((k) => (k.kind ? `${code(k.path)} (${k.kind})` : code(k.path)));
  return [
    '# Configuration',
    '',
    '<!-- Generated from the .describe() strings in src/config/schema/ by scripts/config-docs.ts (`npm run docs:config`). Do not edit by hand. -->',
    '',
    'shortwatch reads one YAML file. [`config/example.yaml`](../config/example.yaml) is a complete, commented example:',
    'copy it, set the environment variables it names, and run `shortwatch check`.',
    '',
    '## Where the file is',
    '',
    'The first of these wins:',
    '',
    '1. `--config <path>` (or `-c <path>`) on the command line;',
    '2. the `SHORTWATCH_CONFIG` environment variable;',
    '3. `config/shortwatch.yaml`, relative to the working directory.',
    '',
    '## Interpolation',
    '',
    'After the YAML is parsed, every string value may use:',
    '',
    '| Form | Becomes |',
    '|---|---|',
    '| `${VAR}` | the environment variable `VAR`; an error naming the key path when it is unset or empty |',
    '| `${VAR:-default}` | `VAR`, or `default` when `VAR` is unset or empty |',
    '| `${file:/path}` | the content of the file, without one trailing newline |',
    '| `$$` | a literal `$` |',
    '',
    'Interpolation yields text: use it for strings, durations and secrets, and write numbers and booleans',
    'literally (`port: ${SMTP_PORT}` would be the string `"587"`, which is rejected).',
    '',
    '## Secrets and `*File` keys',
    '',
    `Keys of type \`secret\` never belong in the file itself: ${secrets.join(', ')}.`,
    'Give them as `${ENV_VAR}`, as `${file:/run/secrets/name}`, or through a sibling `<key>File` key naming a file',
    '(`webhookUrlFile: /run/secrets/slack_desk_webhook`), whose content without one trailing newline is the value.',
    'Setting both `<key>` and `<key>File` is an error. Once loaded, a secret prints as `[redacted]` in logs,',
    '`JSON.stringify` and `util.inspect`; it is revealed only where it leaves the process (an HTTP header, an SMTP',
    'connection).',
    '',
    '## Durations and schedules',
    '',
    'Keys of type `duration` take `250ms`, `90s`, `2m`, `6h` or `7d` (decimals such as `1.5h` too), or a number of',
    'milliseconds. Cron patterns (`channels[].schedule`, `ops.heartbeat`) have five fields: minute, hour, day of',
    "month, month, day of week; `30 7 * * 1-5` is weekdays at 07:30. A digest's schedule runs in its channel's",
    '`timezone`, the heartbeat in UTC. Time zones are IANA names such as `Europe/London`.',
    '',
    '## Errors',
    '',
    'Every object is strict: an unknown key (a typo such as `webhookURL`) is an error, never silently ignored.',
    'All problems are reported at once, each with its key path, and the command exits with code 2:',
    '',
    '```text',
    sampleError(),
    '```',
    '',
    'Rules that span several keys:',
    '',
    '- channel names are unique;',
    '- an email channel needs `smtpUrl` or `host`;',
    '- a digest channel needs a `schedule` and takes no `quietHours`;',
    '- `quietHours.foldInto` names a digest channel;',
    '- `ops.channel` names a configured channel;',
    '- `budget.reserve` is smaller than `budget.perDay`;',
    '- `upstream` may be left out when `sources` lists a register (a registers-only deployment): `watchlist` is',
    '  then left out too; with neither `upstream` nor `sources` there is nothing to watch, an error on `upstream`.',
    '',
    '## Reference',
    '',
    'Key paths use `[]` for list items. **required** keys must be given (inside an optional object: whenever that object is',
    'given); *Default* is the value used when a key is left out, and — means unset. Channel keys shared by every',
    'kind come first, then the keys of each kind.',
  ];
}

/** The whole of docs/configuration.md. */
export function renderConfigDocs(): string {
  const { keys, kinds, sections } = configKeyDocs();
  const lines = intro(keys);
  for (const [section, description] of sections) {
    const own = keys.filter((k) => k.section === section);
    lines.push(
      '',
      `### \`${section}\``,
      '',
      description,
      '',
      ...table(own.filter((k) => k.kind === undefined)),
    );
    for (const [kind, kindDescription] of kinds) {
      const ofKind = own.filter((k) => k.kind === kind);
      if (ofKind.length === 0 && section !== 'channels') continue;
      lines.push('', `#### \`kind: ${kind}\``, '', kindDescription);
      lines.push('', ...(ofKind.length > 0 ? table(ofKind) : ['No keys beyond the shared ones.']));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A short line diff (LCS) of two texts: changed lines marked `-` (expected) and `+` (found). */
export function diffSummary(expected: string, actual: string, limit = 20): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = lcs[i] ?? [];
      row[j] =
        a[i] === b[j] ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const changes: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || (lcs[i]?.[j + 1] ?? 0) >= (lcs[i + 1]?.[j] ?? 0))) {
      changes.push(`+ ${j + 1}: ${b[j++]}`);
    } else {
      changes.push(`- ${i + 1}: ${a[i++]}`);
    }
  }
  const shown = changes.slice(0, limit);
  if (changes.length > limit) shown.push(`… and ${changes.length - limit} more changed lines`);
  return `${changes.length} changed ${changes.length === 1 ? 'line' : 'lines'}:\n${shown.join('\n')}`;
}

/** Runs the CLI: writes `docsPath`, or with `--check` compares it and returns 1 when it is out of date. */
export function runConfigDocs(
  args: readonly string[],
  docsPath: string,
  out: (line: string) => void,
): number {
  const expected = renderConfigDocs();
  if (!args.includes('--check')) {
    writeFileSync(docsPath, expected);
    out(`wrote ${docsPath}`);
    return 0;
  }
  let actual = '';
  try {
    actual = readFileSync(docsPath, 'utf8');
  } catch {
    out(`${docsPath} is missing; run \`npm run docs:config\``);
    return 1;
  }
  if (actual === expected) {
    out(`${docsPath} is up to date`);
    return 0;
  }
  out(`${docsPath} is out of date; run \`npm run docs:config\`.`);
  out(diffSummary(expected, actual));
  return 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = runConfigDocs(process.argv.slice(2), fileURLToPath(DOCS_URL), (line) =>
    process.stdout.write(`${line}\n`),
  );
}
