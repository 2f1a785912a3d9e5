// The LiveBoard in a real browser: headless Chromium driven over the DevTools protocol.
//
//   node --experimental-websocket Examples/LiveBoard/Tests/browser.mjs \
//     [--server PATH] [--rounds 20] [--clients 3] [--artifacts DIR] [--bench-cards 0 --bench-updates 200]
//
// Starts the server on a loopback port behind a small TCP proxy (so the test can cut the page's
// connection), opens the page, then: several clients send random command batches concurrently
// and after each round the page's DOM must equal the model; the proxy cuts every connection
// mid-stream and the page must resume from the replay buffer (no snapshot, no refusal, no gap);
// the server is stopped with SIGTERM (it must exit within a second, the page connected) and
// started again, and the page must take the new server's snapshot. Saves a screenshot.
// With --bench-cards N it instead measures apply + render time in the page for a board of N cards.
// Bounded: every wait has a deadline, and the whole run is killed after 240 s.

import { spawn } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep, until, freePort, startChromium } from './devtools.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const options = {
  server: join(here, '..', '.build', 'debug', 'live-board'),
  rounds: 20,
  clients: 3,
  artifacts: join(here, '..', '.build', 'artifacts'),
  chromium: 'chromium',
  benchCards: 0,
  benchUpdates: 200,
  seed: 33,
};
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '').replace(/-(.)/g, (_, c) => c.toUpperCase());
  if (!(key in options)) throw new Error(`unknown option ${process.argv[i]}`);
  options[key] = typeof options[key] === 'number' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}

const children = [];
const cleanup = () => { for (const child of children) if (child.exitCode === null) child.kill('SIGKILL'); };
process.on('exit', cleanup);
const watchdog = setTimeout(() => { console.error('browser test: timed out after 240 s'); cleanup(); process.exit(1); }, 240_000);

let seed = options.seed;
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (list) => list[Math.floor(random() * list.length)];
// The server.
let server = null;
async function startServer(port, extra = []) {
  const child = spawn(options.server, ['--port', String(port), '--keep-alive', '2', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => { text += chunk; if (text.includes('live-board: http')) resolve(); });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  server = child;
}
async function stopServer() {
  const start = Date.now();
  const exited = new Promise((resolve) => server.on('exit', resolve));
  server.kill('SIGTERM');
  await Promise.race([exited, sleep(5000)]);
  const ms = Date.now() - start;
  if (server.exitCode === null && server.signalCode === null) throw new Error('server still running 5 s after SIGTERM');
  return ms;
}

// A TCP proxy in front of the server: `cut()` kills every connection mid-stream.
function startProxy(listenPort, targetPort) {
  const sockets = new Set();
  const proxy = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return new Promise((resolve) => proxy.listen(listenPort, '127.0.0.1', () => resolve({
    cut() { for (const socket of sockets) socket.destroy(); },
    close() { proxy.close(); for (const socket of sockets) socket.destroy(); },
  })));
}

const pageState = `(() => {
  // Before the page has parsed its body (a slow start), it shows nothing yet.
  if (!document.body) return { seq: -1, stream: null, stats: null, columns: [] };
  const board = window.liveBoard;
  return {
    seq: Number(document.body.dataset.seq ?? -1), stream: document.body.dataset.stream ?? null,
    stats: board ? { ...board.connection.stats, times: undefined } : null,
    columns: [...document.querySelectorAll('#board > section')].map((s) => ({
      id: s.dataset.id, title: s.querySelector('h2').textContent,
      cards: [...s.querySelectorAll('li')].map((li) => ({ id: li.dataset.id, title: li.textContent })),
    })),
  };
})()`;

function modelColumns(board) {
  return board.sections.map(([header, ...cards]) => ({ id: header.id, title: header.title, cards }));
}

async function checkPage(browser, base, label) {
  const model = await (await fetch(`${base}/board`)).json();
  const page = await until(`the page to reach update ${model.seq} (${label})`, async () => {
    const state = await browser.evaluate(pageState);
    return state.stream === model.stream && state.seq >= model.seq ? state : null;
  });
  const now = await (await fetch(`${base}/board`)).json();
  if (now.seq !== page.seq) return page; // moved on meanwhile: checked at the next round
  const expected = JSON.stringify(modelColumns(now));
  const shown = JSON.stringify(page.columns);
  if (expected !== shown) {
    throw new Error(`browser test: ${label}: the page differs from the model at update ${now.seq}\n  model ${expected}\n  page  ${shown}`);
  }
  return page;
}

// A random batch from the board as a client sees it: by id, or by path with seenAt.
function randomBatch(board) {
  const columns = modelColumns(board);
  const commands = [];
  const cards = columns.flatMap((column, s) => column.cards.map((card, i) => ({ ...card, path: [s, i + 1] })));
  const used = new Set();
  for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
    const column = Math.floor(random() * columns.length);
    const free = cards.filter((card) => !used.has(card.id));
    const card = free.length ? pick(free) : null;
    const roll = random();
    if (roll < 0.04) {
      commands.push({ kind: 'segment', segment: pick(['week', 'later']) });
      break;
    }
    if (roll < 0.35 || !card) commands.push({ kind: 'add', column, index: 0, title: `t${Math.floor(random() * 1000)}` });
    else if (roll < 0.55) commands.push({ kind: 'rename', card: card.path, title: `r${Math.floor(random() * 1000)}` });
    else if (roll < 0.75) commands.push({ kind: 'move', card: card.id, column: columns[column].id, index: 0 });
    else if (roll < 0.9) { used.add(card.id); commands.push({ kind: 'delete', card: card.path }); }
    else if (roll < 0.95) commands.push({ kind: 'moveColumn', column, index: Math.floor(random() * columns.length) });
    else commands.push({ kind: 'renameColumn', column, title: `C${Math.floor(random() * 100)}` });
    if (card && commands.at(-1).card) used.add(card.id);
  }
  return { seenAt: `${board.stream}#${board.seq}`, commands };
}

async function client(base) {
  const board = await (await fetch(`${base}/board`)).json();
  const response = await fetch(`${base}/commands`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(randomBatch(board)) });
  const body = await response.json();
  // A path another client's batch removed meanwhile is refused (409) and changes nothing.
  if (!response.ok && response.status !== 409 && response.status !== 422) {
    throw new Error(`browser test: POST /commands answered ${response.status} ${JSON.stringify(body)}`);
  }
  return response.status;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const serverPort = await freePort();
  const proxyPort = await freePort();
  const base = `http://127.0.0.1:${serverPort}`;
  const extra = options.benchCards ? ['--cards', String(options.benchCards)] : [];
  await startServer(serverPort, extra);
  const proxy = await startProxy(proxyPort, serverPort);
  const browser = await startChromium({ chromium: options.chromium, children });
  await browser.send('Page.enable');
  await browser.send('Page.navigate', { url: `http://127.0.0.1:${proxyPort}/` });
  let page = await checkPage(browser, base, 'first snapshot');

  if (options.benchCards) {
    // One change per update on a board of benchCards cards: apply + render time in the page.
    await browser.evaluate('window.liveBoard.connection.stats.times.length = 0');
    const board = await (await fetch(`${base}/board`)).json();
    const cards = modelColumns(board).flatMap((column) => column.cards);
    for (let n = 0; n < options.benchUpdates; n++) {
      const card = cards[Math.floor(random() * cards.length)];
      await fetch(`${base}/commands`, { method: 'POST', body: JSON.stringify({ commands: [{ kind: 'rename', card: card.id, title: `b${n}` }] }) });
    }
    await checkPage(browser, base, 'benchmark');
    const times = await browser.evaluate('window.liveBoard.connection.stats.times');
    console.log(`browser: ${options.benchCards} cards, ${times.length} updates of one change: apply + render p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms`);
    browser.close();
    proxy.close();
    await stopServer();
    return;
  }

  // 1. Concurrent clients, the DOM checked after each round.
  const statuses = {};
  for (let round = 0; round < options.rounds; round++) {
    const results = await Promise.all(Array.from({ length: options.clients }, () => client(base)));
    for (const status of results) statuses[status] = (statuses[status] ?? 0) + 1;
    page = await checkPage(browser, base, `round ${round}`);
  }
  if (!statuses[200]) throw new Error('browser test: no batch was accepted');
  console.log(`browser: ${options.rounds} rounds of ${options.clients} concurrent clients, answers ${JSON.stringify(statuses)}, page at update ${page.seq}, DOM equal to the model after each round`);

  // 2. The connection cut mid-stream: the page resumes without a gap and without a snapshot.
  const before = await browser.evaluate(pageState);
  const statsBefore = await (await fetch(`${base}/stats`)).json();
  const sending = (async () => { for (let n = 0; n < 30; n++) { await client(base); await sleep(20); } })();
  await sleep(150);
  proxy.cut();
  await sending;
  page = await checkPage(browser, base, 'after the cut');
  const statsAfter = await (await fetch(`${base}/stats`)).json();
  if (page.stats.snapshots !== before.stats.snapshots || page.stats.refused !== 0) {
    throw new Error(`browser test: the page did not resume cleanly: ${JSON.stringify(page.stats)}`);
  }
  if (statsAfter.resumed <= statsBefore.resumed) throw new Error('browser test: the server saw no resumption');
  // The cut connection's subscriber is gone: only the page's new one is left.
  await until('the cut subscriber to be released', async () => (await (await fetch(`${base}/stats`)).json()).subscribers === 1, 5000);
  console.log(`browser: connection cut mid-stream, resumed from the replay buffer (server resumptions ${statsBefore.resumed} → ${statsAfter.resumed}), no snapshot, no refusal, page at update ${page.seq}`);

  // 3. The server restarted: SIGTERM with the page connected, then a new stream.
  const exitMs = await stopServer();
  if (exitMs > 1000) throw new Error(`browser test: the server took ${exitMs} ms to exit after SIGTERM`);
  await startServer(serverPort);
  await client(base);
  page = await checkPage(browser, base, 'after the restart');
  if (page.stream === before.stream || page.stats.snapshots !== before.stats.snapshots + 1) {
    throw new Error(`browser test: the page did not take the new server's snapshot: ${JSON.stringify(page.stats)}`);
  }
  console.log(`browser: SIGTERM ended the server in ${exitMs} ms with the page connected; restarted, the page took a snapshot of the new stream`);

  // The screenshot.
  for (let n = 0; n < 3; n++) await client(base);
  await checkPage(browser, base, 'screenshot');
  const shot = await browser.send('Page.captureScreenshot', { format: 'png' });
  mkdirSync(options.artifacts, { recursive: true });
  const file = join(options.artifacts, 'liveboard.png');
  writeFileSync(file, Buffer.from(shot.data, 'base64'));
  console.log(`browser: screenshot ${file}`);
  browser.close();
  proxy.close();
  await stopServer();
}

main().then(() => { clearTimeout(watchdog); cleanup(); console.log('browser test passed'); process.exit(0); },
  (error) => { console.error(error.stack ?? error); cleanup(); process.exit(1); });
