// Real users signing in during a sign-in flood, from a process of their own (plain JavaScript, as
// the other bench clients), so their timings are a client's, not turns of the server's own event
// loop. Each user, one after another: the sign-in page (its form cookie and token), then the form's
// POST with the right password, each from its own client address (X-Forwarded-For, the API
// trusting one proxy). Only to 127.0.0.1: the parent passes the URL of its own server.
// Options on stdin: { url, password, startAfterMs, users: [{ email, forwardedFor }] }.
// Prints [{ startedAtMs, ms, withPageMs, status }], startedAtMs counted from this process's start.
import http from 'node:http';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const options = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const base = new URL(options.url);
if (base.hostname !== '127.0.0.1') throw new Error(`real users sign in only to 127.0.0.1, not ${base.hostname}`);
const began = performance.now();

function send(path, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, base), { method, headers, agent: false }, (response) => {
      const parts = [];
      response.on('data', (part) => parts.push(part));
      response.on('end', () =>
        resolve({ status: response.statusCode, headers: response.headers, text: Buffer.concat(parts).toString('utf8') }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function signIn({ email, forwardedFor }) {
  const startedAtMs = performance.now() - began;
  const pageAsked = performance.now();
  const page = await send('/account/sign-in', { headers: { 'x-forwarded-for': forwardedFor } });
  const cookie = String(page.headers['set-cookie']?.[0] ?? '').split(';')[0];
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const posted = performance.now();
  const body = new URLSearchParams({ _csrf: csrf, email, password: options.password }).toString();
  const answer = await send('/account/sign-in', {
    method: 'POST',
    headers: {
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': Buffer.byteLength(body),
      'x-forwarded-for': forwardedFor,
    },
    body,
  });
  const done = performance.now();
  return { startedAtMs, ms: done - posted, withPageMs: done - pageAsked, status: answer.status };
}

await new Promise((resolve) => setTimeout(resolve, options.startAfterMs));
const results = [];
for (const user of options.users) results.push(await signIn(user));
process.stdout.write(JSON.stringify(results));
