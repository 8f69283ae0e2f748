import { inspect } from 'node:util';
import { expect } from 'vitest';
import type { UpstreamError } from '../../src/upstream/index.js';

/**
 * Every place `secret` shows up in a value: strings, own properties (hidden ones too, such as `message`,
 * `stack` and `cause`), and the value's util.inspect rendering.
 */
export function findSecret(value: unknown, secret: string): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const walk = (node: unknown, where: string, depth: number): void => {
    if (typeof node === 'string') {
      if (node.includes(secret)) found.push(where);
      return;
    }
    if (typeof node !== 'object' || node === null || seen.has(node) || depth > 8) return;
    seen.add(node);
    for (const key of Reflect.ownKeys(node)) {
      const descriptor = Object.getOwnPropertyDescriptor(node, key);
      if (descriptor && 'value' in descriptor) walk(descriptor.value, `${where}.${String(key)}`, depth + 1);
    }
  };
  walk(value, '(error)', 0);
  if (inspect(value, { showHidden: true, depth: 6 }).includes(secret)) found.push('(inspect)');
  if (value instanceof Error && String(value).includes(secret)) found.push('(toString)');
  return found;
}

/** Awaits a call that must fail with `type`, checks the key appears nowhere in the error, and returns it. */
export async function expectFailure<E extends UpstreamError>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => E,
  key: string,
): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  if (!(error instanceof type)) throw new Error('unreachable: checked above');
  expect(findSecret(error, key)).toEqual([]);
  return error;
}
