// The bare route of the API benchmarks as a process of its own: a plain node `http` server
// answering every request with one JSON body (read from stdin), no framework. Its latency at a
// rate is the floor this machine and the load generator give; the API's is compared with it.
// Prints the port once listening; stops on SIGTERM.
import http from 'node:http';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const body = Buffer.concat(chunks);
const server = http.createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
