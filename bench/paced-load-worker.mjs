// The paced load generator, run as a worker thread or as a process of its own (plain
// JavaScript: worker threads do not load TypeScript through tsx). See bench/paced-load.ts for
// what it measures and why.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function generate(options) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections ?? 50 });
  const latencies = [];
  let sent = 0;
  let errors = 0;
  const statuses = {};
  const started = performance.now();
  const total = Math.round(options.ratePerSecond * options.seconds);
  const pending = [];
  const fire = (scheduledAt) => {
    const path = options.paths[sent % options.paths.length];
    sent += 1;
    pending.push(
      new Promise((resolve) => {
        let settled = false;
        const settle = (status) => {
          if (settled) return;
          settled = true;
          if (status !== 200) errors += 1;
          if (status !== 'error') {
            statuses[status] = (statuses[status] ?? 0) + 1;
            // A timed-out request is timed at its timeout: a lower bound, kept in the percentiles.
            latencies.push(performance.now() - scheduledAt);
          }
          resolve();
        };
        const request = http.get(`${options.url}${path}`, { agent, headers: options.headers ?? {} }, (response) => {
          response.resume();
          response.on('end', () => settle(response.statusCode));
          response.on('close', () => settle(response.complete ? response.statusCode : 'error'));
        });
        request.on('error', () => settle('error'));
        // A bounded run: a request unanswered `timeoutMs` after it was due counts as an error (status "timeout").
        if (options.timeoutMs) {
          const timer = setTimeout(() => {
            settle('timeout');
            request.destroy();
          }, options.timeoutMs);
          request.on('close', () => clearTimeout(timer));
        }
      }),
    );
  };
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - started;
      // Request n is due at n / rate seconds (the first at once); each is timed from when it was
      // due, not from when it went out.
      const due = Math.min(total, Math.floor((elapsed / 1000) * options.ratePerSecond) + 1);
      while (sent < due) fire(started + (sent / options.ratePerSecond) * 1000);
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 100) / 100;
  return {
    sent,
    completed: latencies.length,
    errors,
    statuses,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? 0),
  };
}

if (parentPort) parentPort.postMessage(await generate(workerData));
else {
  // Options arrive on stdin: a path list of thousands of tickers exceeds one argument's limit.
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  process.stdout.write(JSON.stringify(await generate(JSON.parse(Buffer.concat(chunks).toString('utf8')))));
}
