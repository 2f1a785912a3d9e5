// Fan-out through the real server: N SSE clients on loopback follow GET /events while one writer
// sends M batches (one rename each) through POST /commands, one after the other.
//
//   node Examples/LiveBoard/Tests/fanout.mjs --port 8080 --clients 1000 --changesets 10000 [--stalled 0] [--renames 1]
//
// --stalled N adds N clients that connect and never read (their sockets paused): the server must
// move them to "needs snapshot" (overflows) and keep its memory bounded.
//
// Prints the time until every client has the last update, the server's RSS (GET /stats, sampled
// during the run) and the delay from sending a batch to each client receiving it (p50/p99).
import http from 'node:http';

const options = { port: 8080, clients: 1000, changesets: 10000, stalled: 0, renames: 1, host: '127.0.0.1' };
for (let i = 2; i < process.argv.length; i += 2) options[process.argv[i].slice(2)] = Number(process.argv[i + 1]) || process.argv[i + 1];
const base = `http://${options.host}:${options.port}`;
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const getJSON = async (path) => (await fetch(base + path)).json();

const board = await getJSON('/board');
const cards = board.sections.flatMap((section) => section.slice(1));
const long = 'x'.repeat(190);
const startSeq = board.seq;
const lastSeq = startSeq + options.changesets;
const sentAt = new Float64Array(options.changesets + 2);
const delays = new Float64Array(options.clients * options.changesets);
let delayCount = 0;
let current = 0;
let snapshots = 0;
let resolveAll;
const allCurrent = new Promise((resolve) => { resolveAll = resolve; });

function follow() {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}/events`, { agent }, (response) => {
      response.setEncoding('latin1');
      let tail = '';
      let done = false;
      response.on('data', (chunk) => {
        const now = performance.now();
        const text = tail + chunk;
        let at = 0;
        for (;;) {
          const id = text.indexOf('\nid: ', at);
          if (id < 0) break;
          const end = text.indexOf('\n', id + 5);
          if (end < 0) break;
          const hash = text.lastIndexOf('#', end);
          const seq = Number(text.slice(hash + 1, end));
          if (text.startsWith('event: snapshot', Math.max(0, id - 15))) snapshots += 1;
          const k = seq - startSeq;
          if (k >= 1 && k <= options.changesets && sentAt[k] > 0) delays[delayCount++] = now - sentAt[k];
          if (seq === lastSeq && !done) { done = true; current += 1; if (current === options.clients) resolveAll(); }
          at = end;
        }
        tail = text.slice(Math.max(at, text.length - 400));
      });
      resolve(response);
    });
    request.on('error', reject);
  });
}

function stall() {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}/events`, { agent }, (response) => { response.pause(); resolve(response); });
    request.on('error', reject);
  });
}
await Promise.all(Array.from({ length: options.stalled }, stall));
const connecting = performance.now();
for (let i = 0; i < options.clients; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, options.clients - i) }, follow));
}
await new Promise((resolve) => setTimeout(resolve, 500));
const idle = await getJSON('/stats');
console.log(`fan-out: ${idle.subscribers} subscribers connected in ${(performance.now() - connecting).toFixed(0)} ms; server RSS ${(idle.residentBytes / 2 ** 20).toFixed(1)} MiB`);

let peakRSS = idle.residentBytes;
const sampler = setInterval(async () => { try { peakRSS = Math.max(peakRSS, (await getJSON('/stats')).residentBytes); } catch {} }, 250);
const postAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function post(body) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/commands`, { method: 'POST', agent: postAgent, headers: { 'content-type': 'application/json' } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    request.on('error', reject);
    request.end(body);
  });
}
const start = performance.now();
for (let n = 1; n <= options.changesets; n++) {
  sentAt[n] = performance.now();
  // --renames k: k cards renamed per batch (k > 1 with long titles, for heavy changesets).
  const commands = options.renames === 1
    ? [{ kind: 'rename', card: cards[0].id, title: `r${n}` }]
    : cards.slice(0, options.renames).map((card) => ({ kind: 'rename', card: card.id, title: `${long}${n}` }));
  const status = await post(JSON.stringify({ commands }));
  if (status !== 200) throw new Error(`POST answered ${status}`);
}
const sent = performance.now();
await allCurrent;
const end = performance.now();
clearInterval(sampler);
const stats = await getJSON('/stats');
const sorted = delays.subarray(0, delayCount).sort();
const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1);
console.log(`fan-out: ${options.clients} clients × ${options.changesets} changesets: sent in ${(sent - start).toFixed(0)} ms, all clients current after ${(end - start).toFixed(0)} ms`);
console.log(`fan-out: ${delayCount} receipts, delay from POST to receipt p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1 - 1e-9)} ms`);
console.log(`fan-out: server RSS peak ${(peakRSS / 2 ** 20).toFixed(1)} MiB, after ${(stats.residentBytes / 2 ** 20).toFixed(1)} MiB; overflows ${stats.overflows}, snapshots ${stats.snapshotsServed} (${snapshots} seen by clients)`);
process.exit(0);
