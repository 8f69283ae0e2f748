import { setTimeout as delay } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { redactText, type Secret } from '../config/secret.js';
import { exposesKeyInClear, INSECURE_UPSTREAM_MESSAGE } from '../config/upstream-url.js';
import { type AttemptSettings, performAttempt } from './attempt.js';
import { backoffDelay } from './backoff.js';
import { isRetryable, type UpstreamError, UpstreamTimeoutError } from './errors.js';
import { issuersPath, positionsPath, type UpstreamOperation } from './operations.js';
import type { RequestInfo, ResponseInfo } from './request-info.js';
import {
  type IssuerList,
  issuerListSchema,
  type PositionStatus,
  type PositionsResponse,
  positionsResponseSchema,
} from './schemas.js';

/** Settings and hooks of {@link createUpstreamClient}; defaults live in the config schema, not here. */
export interface UpstreamClientOptions {
  /** Base URL of the service, e.g. `https://api.example.com` (a path prefix is kept). */
  baseUrl: string;
  apiKey: Secret;
  /**
   * Whether a plain `http:` baseUrl on a host that is not loopback is accepted (`upstream.allowInsecureHttp`);
   * unset means refused, so that no caller can send the key in clear by leaving it out.
   */
  allowInsecureHttp?: boolean;
  /** Deadline of one attempt: connect, headers and body. */
  timeoutMs: number;
  /** Largest response body accepted, counted as it arrives. */
  maxBodyBytes: number;
  /** Retries of 5xx, network errors and timeouts; 4xx are never retried here. */
  retries: number;
  /** First retry delay; doubles each retry, with full jitter. */
  retryDelayMs: number;
  /** The rate-budget hook, awaited before every attempt (retries too); if it throws, nothing is sent. */
  beforeRequest?: (info: RequestInfo) => Promise<void>;
  /** Called after every attempt, for metrics and for recording 429/401. */
  afterResponse?: (info: ResponseInfo) => void | Promise<void>;
  /** Default: a keep-alive undici Agent with the timeouts and size cap above, closed by `close()`. */
  dispatcher?: Dispatcher;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Wall clock in epoch ms, for Retry-After HTTP-dates. Default `Date.now`. */
  now?: () => number;
}

/** Typed access to the two upstream operations. */
export interface UpstreamClient {
  /** `GET /issuers`, validated. */
  listIssuers(): Promise<IssuerList>;
  /** `GET /issuers/{id}/positions?status=`, validated; `status` defaults to `active`. */
  getPositions(issuerId: string, status?: PositionStatus): Promise<PositionsResponse>;
  /** Closes the default dispatcher (an injected one belongs to the caller). */
  close(): Promise<void>;
}

interface Call<T> {
  operation: UpstreamOperation;
  path: string;
  issuerId?: string;
  schema: z.ZodType<T>;
}

/** Builds the upstream client: one validated call per operation, with retries and hooks around each attempt. */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  checkOptions(options);
  const base = new URL(options.baseUrl);
  const key = options.apiKey.reveal();
  const ownsDispatcher = options.dispatcher === undefined;
  const settings: AttemptSettings = {
    dispatcher: options.dispatcher ?? createAgent(options),
    origin: base.origin,
    basePath: base.pathname.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'user-agent': 'shortwatch' },
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    redact: (text) => redactText(text, [key]),
    now: options.now ?? Date.now,
  };
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const random = options.random ?? Math.random;

  async function call<T>({ operation, path, issuerId, schema }: Call<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const info: RequestInfo = { operation, method: 'GET', path, attempt };
      await options.beforeRequest?.(info);
      const started = performance.now();
      const outcome = await performAttempt({ operation, method: 'GET', path, issuerId }, schema, settings);
      const durationMs = performance.now() - started;
      if (outcome.ok) {
        await options.afterResponse?.({ ...info, status: outcome.status, durationMs });
        return outcome.value;
      }
      const { error } = outcome;
      await options.afterResponse?.({ ...info, status: attemptStatus(error), durationMs, error });
      if (!isRetryable(error) || attempt > options.retries) throw error;
      await sleep(backoffDelay(attempt - 1, options.retryDelayMs, random));
    }
  }

  return {
    listIssuers: () => call({ operation: 'issuers', path: issuersPath(), schema: issuerListSchema }),
    getPositions: (issuerId, status = 'active') =>
      call({
        operation: 'positions',
        path: positionsPath(issuerId, status),
        issuerId,
        schema: positionsResponseSchema,
      }),
    close: async () => {
      if (ownsDispatcher) await settings.dispatcher.close();
    },
  };
}

function attemptStatus(error: UpstreamError): ResponseInfo['status'] {
  if (error instanceof UpstreamTimeoutError) return 'timeout';
  return error.status ?? 'network';
}

function createAgent(options: UpstreamClientOptions): Agent {
  return new Agent({
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: options.timeoutMs },
    maxResponseSize: options.maxBodyBytes,
  });
}

function checkOptions(options: UpstreamClientOptions): void {
  const protocol = URL.canParse(options.baseUrl) ? new URL(options.baseUrl).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new TypeError('upstream baseUrl must be an http(s) URL');
  // The config refuses this already; checked again here because this is where the key leaves the process.
  if (exposesKeyInClear(options.baseUrl, options.allowInsecureHttp ?? false))
    throw new TypeError(`upstream baseUrl ${INSECURE_UPSTREAM_MESSAGE}`);
  const positive = { timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes };
  for (const [name, value] of Object.entries(positive)) {
    if (!Number.isInteger(value) || value <= 0)
      throw new RangeError(`upstream ${name} must be a positive integer`);
  }
  const nonNegative = { retries: options.retries, retryDelayMs: options.retryDelayMs };
  for (const [name, value] of Object.entries(nonNegative)) {
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`upstream ${name} must be an integer >= 0`);
  }
}
