// A sign-in flood from a process of its own (plain JavaScript, as the other bench clients): wrong
// passwords for one email from one client address (X-Forwarded-For, the API trusting one proxy),
// all with one form token, `concurrency` requests in flight at any moment until `seconds` pass
// or `maxRequests` were sent. Only to 127.0.0.1: the parent passes the URL of its own server.
// Options on stdin: { url, cookie, csrf, email, forwardedFor, concurrency, seconds, maxRequests }.
// Prints { sent, statuses, seconds }.
import http from 'node:http';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const options = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const target = new URL('/account/sign-in', options.url);
if (target.hostname !== '127.0.0.1') throw new Error(`the flood goes only to 127.0.0.1, not ${target.hostname}`);
const body = new URLSearchParams({ _csrf: options.csrf, email: options.email, password: 'a wrong password, again' }).toString();
const headers = {
  cookie: options.cookie,
  'content-type': 'application/x-www-form-urlencoded',
  'content-length': Buffer.byteLength(body),
  'x-forwarded-for': options.forwardedFor,
};
const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
const statuses = {};
let sent = 0;
const started = performance.now();
const deadline = started + options.seconds * 1000;

function attempt() {
  return new Promise((resolve) => {
    const request = http.request(target, { method: 'POST', agent, headers }, (response) => {
      response.resume();
      response.on('end', () => {
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
        resolve();
      });
    });
    request.on('error', () => {
      statuses.error = (statuses.error ?? 0) + 1;
      resolve();
    });
    request.end(body);
  });
}

async function lane() {
  while (performance.now() < deadline && sent < options.maxRequests) {
    sent += 1;
    await attempt();
  }
}

await Promise.all(Array.from({ length: options.concurrency }, lane));
agent.destroy();
process.stdout.write(JSON.stringify({ sent, statuses, seconds: (performance.now() - started) / 1000 }));
