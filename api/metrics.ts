import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  workflowStarts: Counter<'workflow'>;
}

/** A fresh Prometheus registry with process metrics and the API's request histogram. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'faithscreen_' });
  const httpDuration = new Histogram({
    name: 'faithscreen_http_request_duration_seconds',
    help: 'API request latency by route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const workflowStarts = new Counter({
    name: 'faithscreen_workflow_starts_total',
    help: 'Workflows started by this process, by workflow type',
    labelNames: ['workflow'] as const,
    registers: [registry],
  });
  return { registry, httpDuration, workflowStarts };
}
