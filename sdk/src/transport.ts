// One HTTP exchange with svc: auth header, JSON bodies, problem → typed error, timeouts,
// AbortSignal, bounded automatic retry of 429/503 honouring Retry-After, and an Idempotency-Key on
// every POST (one per logical call, reused by its retries, which makes retrying a POST after a lost
// answer safe).
import {
  type SvcError,
  errorFromProblem,
  RateLimitedError,
  ServiceUnavailableError,
  BudgetExceededError,
  IdempotencyKeyInFlightError,
  syntheticProblem,
  TimeoutError,
  type Problem,
} from "./errors.js";

export type ClientOptions = {
  /** e.g. "http://localhost:8080" (no trailing /v1). */
  baseUrl: string;
  /** An API key (svc_sk_…) or, for `admin`, the superadmin key. */
  apiKey?: string;
  /** Per-request timeout in milliseconds (default 30 000); 0 disables it. */
  timeoutMs?: number;
  /** How many times a 429 rate-limited or 503 answer is retried (default 3); 0 disables retry. */
  maxRetries?: number;
  /**
   * A Retry-After longer than this (ms, default 30 000) is not waited for: the error is thrown at
   * once.
   */
  maxRetryDelayMs?: number;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Extra headers sent on every request. */
  headers?: Record<string, string>;
};

export type CallOptions = {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * POST only: the Idempotency-Key to send (1–255 printable ASCII). By default each call gets a
   * fresh UUID, reused by the call's own retries; pass your own to make retries across calls or
   * processes safe.
   */
  idempotencyKey?: string;
};

export type RequestSpec = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  accept?: string;
} & CallOptions;

const FALLBACK_BACKOFF_MS = 500;

export class Transport {
  readonly baseUrl: string;
  private readonly options: ClientOptions;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ClientOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Sends the request and parses a JSON answer; any non-2xx becomes a typed SvcError. */
  async json<T>(spec: RequestSpec): Promise<T> {
    const { response, done } = await this.send(spec);
    try {
      const text = await response.text();
      return (text ? JSON.parse(text) : null) as T;
    } finally {
      done();
    }
  }

  /**
   * Sends the request and returns the open response (for streams). The timeout covers only the wait
   * for the response headers; the caller's signal keeps governing the body.
   */
  async open(spec: RequestSpec): Promise<Response> {
    const { response, done } = await this.send(spec, { bodyTimeout: false });
    done();
    return response;
  }

  private url(path: string, query: Record<string, unknown> | undefined): string {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  private async send(
    spec: RequestSpec,
    mode: { bodyTimeout: boolean } = { bodyTimeout: true },
  ): Promise<{ response: Response; done: () => void }> {
    const maxRetries = this.options.maxRetries ?? 3;
    const maxDelay = this.options.maxRetryDelayMs ?? 30_000;
    // Streams are not stored by the server, so only whole-body POSTs carry a key.
    const idempotencyKey =
      spec.method === "POST" && mode.bodyTimeout
        ? (spec.idempotencyKey ?? globalThis.crypto.randomUUID())
        : undefined;
    for (let attempt = 0; ; attempt++) {
      let sent: { response: Response; done: () => void };
      try {
        sent = await this.attempt(spec, mode, idempotencyKey);
      } catch (error) {
        // A connection lost before the answer: with an idempotency key the retry cannot run the
        // call twice.
        if (
          idempotencyKey === undefined ||
          !isNetworkError(error) ||
          spec.signal?.aborted ||
          attempt >= maxRetries
        )
          throw error;
        await sleep(FALLBACK_BACKOFF_MS * 2 ** attempt, spec.signal);
        continue;
      }
      const { response, done } = sent;
      if (response.ok) return { response, done };
      let error: SvcError;
      try {
        error = await this.problemError(response);
      } finally {
        done();
      }
      // Budget-exceeded waits for a period reset (hours): never retried.
      // 409 idempotency-key-in-flight: this call's earlier attempt is still running; its answer
      // follows.
      const retriable =
        (error instanceof RateLimitedError && !(error instanceof BudgetExceededError)) ||
        error instanceof ServiceUnavailableError ||
        error instanceof IdempotencyKeyInFlightError;
      if (!retriable || attempt >= maxRetries) throw error;
      const retryAfter = (
        error as RateLimitedError | ServiceUnavailableError | IdempotencyKeyInFlightError
      ).retryAfter;
      const delay =
        retryAfter !== undefined ? retryAfter * 1000 : FALLBACK_BACKOFF_MS * 2 ** attempt;
      if (delay > maxDelay) throw error;
      await sleep(delay, spec.signal);
    }
  }

  private async attempt(
    spec: RequestSpec,
    mode: { bodyTimeout: boolean },
    idempotencyKey: string | undefined,
  ): Promise<{ response: Response; done: () => void }> {
    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    const controller = new AbortController();
    const onAbort = () => controller.abort(spec.signal?.reason);
    if (spec.signal?.aborted) throw spec.signal.reason;
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    const timer =
      timeoutMs > 0
        ? setTimeout(() => controller.abort(new TimeoutError(timeoutMs)), timeoutMs)
        : undefined;
    const done = () => {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
    };
    const headers: Record<string, string> = {
      accept: spec.accept ?? "application/json",
      ...this.options.headers,
    };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }
    try {
      const response = await this.fetchImpl(this.url(spec.path, spec.query), {
        method: spec.method,
        headers,
        body,
        signal: controller.signal,
      });
      if (!mode.bodyTimeout) {
        clearTimeout(timer);
        // The body still follows the caller's signal: the listener stays until the stream ends.
        return { response, done: () => {} };
      }
      return { response, done };
    } catch (error) {
      done();
      throw controller.signal.aborted ? controller.signal.reason : error;
    }
  }

  private async problemError(response: Response) {
    const text = await response.text();
    let problem: Problem;
    try {
      const parsed = JSON.parse(text);
      problem =
        parsed && typeof parsed === "object" && typeof parsed.type === "string"
          ? parsed
          : syntheticProblem(response.status, response.statusText, text);
    } catch {
      problem = syntheticProblem(response.status, response.statusText, text);
    }
    return errorFromProblem(problem, response.headers);
  }
}

/**
 * A fetch rejection that is neither the caller's abort nor our timeout: the connection failed or
 * dropped.
 */
function isNetworkError(error: unknown): boolean {
  return (
    !(error instanceof TimeoutError) &&
    !(error instanceof DOMException && error.name === "AbortError")
  );
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export { sleep };
