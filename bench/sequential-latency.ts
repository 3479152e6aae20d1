/** Latency of requests sent one at a time (no concurrency): each body read whole, errors = non-200 answers. */
export interface SequentialLatency {
  name: string;
  requests: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Sends each request after the previous one has been read, and summarises the times. */
export async function timeSequentially(name: string, requests: ReadonlyArray<() => Promise<Response>>): Promise<SequentialLatency> {
  const times: number[] = [];
  let errors = 0;
  for (const request of requests) {
    const started = performance.now();
    const response = await request();
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 200) errors += 1;
  }
  times.sort((a, b) => a - b);
  return {
    name,
    requests: requests.length,
    errors,
    p50Ms: round(quantile(times, 0.5)),
    p95Ms: round(quantile(times, 0.95)),
    maxMs: round(times.at(-1) ?? 0),
  };
}
