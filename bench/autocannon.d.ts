/** The part of autocannon's API the daemon benchmarks use (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    /** Headers sent with every request. */
    headers?: Record<string, string>;
    /** Requests in turn; setupRequest may change each one (e.g. its path) before it is sent. */
    requests?: Array<{ method?: string; path?: string; setupRequest?: (request: Record<string, unknown>) => Record<string, unknown> }>;
  }
  interface Result {
    requests: { average: number; total: number };
    latency: { average: number; p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
