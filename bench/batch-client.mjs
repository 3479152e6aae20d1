// Batches sent one after another from a process of its own (plain JavaScript, as the paced
// generator): the client's work (sending 100 items, reading a response of ~2 MB) then takes
// none of the API process's CPU or event loop, so the API's CPU per batch is its own. Each batch
// is timed from its send to the last byte of its answer; the answer is parsed after the clock
// stops, only to count its results.
// Options on stdin: { url, headers, batches: [body, ...] }. Prints { latenciesMs, resultCounts, statuses }.
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { url, headers, batches } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const latenciesMs = [];
const resultCounts = [];
const statuses = [];
for (const body of batches) {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = await response.arrayBuffer();
  latenciesMs.push(performance.now() - started);
  statuses.push(response.status);
  const answer = response.status === 200 ? JSON.parse(Buffer.from(bytes).toString('utf8')) : {};
  resultCounts.push(answer.results?.length ?? 0);
}
process.stdout.write(JSON.stringify({ latenciesMs, resultCounts, statuses }));
