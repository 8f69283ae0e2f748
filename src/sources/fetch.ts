import { type Dispatcher, request } from 'undici';
import type { RegisterFetchConfig } from '../config/schema/sources.js';
import { declaresTooLarge, readLimited } from '../upstream/read-body.js';
import { isRegisterReadError, RegisterReadError } from './errors.js';
import type { Validators } from './types.js';

/** A new body with its validators, or the server's word that nothing changed since `Validators`. */
export type FetchOutcome =
  | { status: 'not-modified' }
  | { status: 'fetched'; bytes: Buffer; contentType: string | undefined; validators: Validators };

/** The request headers of a conditional GET. */
export function conditionalHeaders(validators: Validators): Record<string, string> {
  const headers: Record<string, string> = {};
  if (validators.etag !== undefined) headers['if-none-match'] = validators.etag;
  if (validators.lastModified !== undefined) headers['if-modified-since'] = validators.lastModified;
  return headers;
}

/** A register answered to a form POST (KNF's JSON API, FIN-FSA's DataTables endpoint), not a GET. */
export interface FormPost {
  /** The `application/x-www-form-urlencoded` body. */
  form: string;
}

/**
 * One conditional GET of a whole register file (or, with `post`, one form POST), within the size and
 * time limits of `limits`. Throws `RegisterReadError` (`http-status`, `timeout`, `too-large`,
 * `transport`); never retries.
 */
export async function fetchRegister(
  url: string,
  validators: Validators,
  limits: Pick<RegisterFetchConfig, 'timeout' | 'maxBytes'>,
  dispatcher?: Dispatcher,
  post?: FormPost,
): Promise<FetchOutcome> {
  const signal = AbortSignal.timeout(limits.timeout);
  try {
    const response = await request(url, {
      method: post === undefined ? 'GET' : 'POST',
      headers: {
        ...conditionalHeaders(validators),
        'accept-encoding': 'identity',
        // The DataTables and w2ui endpoints answer only what looks like their page's own XHR.
        ...(post === undefined
          ? {}
          : {
              'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
              'x-requested-with': 'XMLHttpRequest',
            }),
      },
      ...(post === undefined ? {} : { body: post.form }),
      signal,
      headersTimeout: limits.timeout,
      bodyTimeout: limits.timeout,
      ...(dispatcher === undefined ? {} : { dispatcher }),
    });
    return await outcomeOf(response, limits.maxBytes);
  } catch (error) {
    if (isRegisterReadError(error)) throw error;
    if (signal.aborted) throw new RegisterReadError('timeout', `no whole file within ${limits.timeout} ms`);
    throw new RegisterReadError('transport', 'the request failed', { cause: error });
  }
}

async function outcomeOf(response: Dispatcher.ResponseData, maxBytes: number): Promise<FetchOutcome> {
  const { statusCode, headers, body } = response;
  if (statusCode === 304) {
    await body.dump();
    return { status: 'not-modified' };
  }
  if (statusCode < 200 || statusCode > 299) {
    await body.dump();
    throw new RegisterReadError('http-status', `HTTP ${statusCode}`);
  }
  if (declaresTooLarge(headers['content-length'], maxBytes)) {
    body.destroy();
    throw new RegisterReadError('too-large', `the file declares more than ${maxBytes} bytes`);
  }
  const read = await readLimited(body, maxBytes);
  if (!read.complete) throw new RegisterReadError('too-large', `the file is longer than ${maxBytes} bytes`);
  return {
    status: 'fetched',
    bytes: read.bytes,
    contentType: header(headers['content-type']),
    validators: validatorsOf(headers),
  };
}

function validatorsOf(headers: Dispatcher.ResponseData['headers']): Validators {
  const validators: Validators = {};
  const etag = header(headers.etag);
  const lastModified = header(headers['last-modified']);
  if (etag !== undefined) validators.etag = etag;
  if (lastModified !== undefined) validators.lastModified = lastModified;
  return validators;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
