/** Which operation a request addressed. */
export type SandboxOperation = 'issuers' | 'positions' | 'other';

/** One request the sandbox answered. */
export interface RequestRecord {
  /** Arrival time (the sandbox clock, epoch ms). */
  at: number;
  /** The bearer token sent, or null when none was. */
  key: string | null;
  method: string;
  /** The request path as sent (still percent-encoded), without the query. */
  path: string;
  operation: SandboxOperation;
  /** The decoded issuer id of a positions request. */
  issuerId?: string;
  status: number;
}

/** Which requests to count; every given field must match. */
export type RequestFilter = Partial<Pick<RequestRecord, 'key' | 'status' | 'operation' | 'issuerId'>>;

/** What the sandbox saw, for assertions on a client's discipline. */
export interface RequestStats {
  readonly requests: readonly RequestRecord[];
  /** Requests matching the filter. */
  count(filter?: RequestFilter): number;
  /** The most matching requests in any window of `ms` aligned on multiples of `ms` (UTC epoch). */
  maxInWindow(ms: number, filter?: RequestFilter): number;
  reset(): void;
}

function matches(record: RequestRecord, filter: RequestFilter): boolean {
  return (
    (filter.key === undefined || record.key === filter.key) &&
    (filter.status === undefined || record.status === filter.status) &&
    (filter.operation === undefined || record.operation === filter.operation) &&
    (filter.issuerId === undefined || record.issuerId === filter.issuerId)
  );
}

/** The in-memory request log behind `sandbox.stats`. */
export class RequestLog implements RequestStats {
  private log: RequestRecord[] = [];

  get requests(): readonly RequestRecord[] {
    return this.log;
  }

  /** Appends one answered request. */
  record(record: RequestRecord): void {
    this.log.push(record);
  }

  count(filter: RequestFilter = {}): number {
    return this.log.filter((record) => matches(record, filter)).length;
  }

  maxInWindow(ms: number, filter: RequestFilter = {}): number {
    const perWindow = new Map<number, number>();
    let max = 0;
    for (const record of this.log) {
      if (!matches(record, filter)) continue;
      const window = Math.floor(record.at / ms);
      const count = (perWindow.get(window) ?? 0) + 1;
      perWindow.set(window, count);
      max = Math.max(max, count);
    }
    return max;
  }

  reset(): void {
    this.log = [];
  }
}
