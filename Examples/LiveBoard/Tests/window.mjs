// The windowed page in a real browser: headless Chromium follows a window of a board of 10^5
// cards (`/window.html`), and its DOM must equal the model's slice after random updates and after
// each scroll. Prints what the page received and how long a window move took.
//
//   node --experimental-websocket Examples/LiveBoard/Tests/window.mjs [--server PATH] [--cards 100000]
//
// Bounded: every wait has a deadline, and the whole run is killed after 240 s.

import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, freePort, startChromium } from './devtools.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const options = { server: join(here, '..', '.build', 'debug', 'live-board'), cards: 100_000, rounds: 12, chromium: 'chromium', seed: 7 };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  if (!(key in options)) throw new Error(`unknown option ${process.argv[i]}`);
  options[key] = typeof options[key] === 'number' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}

const children = [];
const cleanup = () => { for (const child of children) if (child.exitCode === null) child.kill('SIGKILL'); };
process.on('exit', cleanup);
const watchdog = setTimeout(() => { console.error('window test: timed out after 240 s'); cleanup(); process.exit(1); }, 240_000);
let seed = options.seed;
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
async function startServer(port) {
  const child = spawn(options.server, ['--port', String(port), '--cards', String(options.cards)], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => { text += chunk; if (text.includes('live-board: http')) resolve(); });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

const pageState = `(() => {
  const state = window.liveWindow;
  if (!state || !document.body) return null;
  return {
    seq: state.seq, stream: state.stream, start: state.start, counts: state.counts, moving: state.moving,
    ids: [...document.querySelectorAll('#rows li')].map((li) => li.dataset.id),
    titles: [...document.querySelectorAll('#rows li')].map((li) => li.textContent),
    bytes: state.bytes, moves: state.moves, resyncs: state.resyncs, applied: state.applied,
    moveTimes: state.moveTimes,
  };
})()`;

// Waits until the page shows update `seq` or later, at rest, and checks it against the model.
async function check(browser, base, label, expectStart) {
  for (let attempt = 0; ; attempt++) {
    const model = await (await fetch(`${base}/board`)).json();
    const page = await until(`the page at update ${model.seq} (${label})`, async () => {
      const state = await browser.evaluate(pageState);
      return state && state.stream === model.stream && state.seq >= model.seq && !state.moving
        && (expectStart === undefined || expectStart(state.start)) ? state : null;
    }, 30_000);
    const now = await (await fetch(`${base}/board`)).json();
    if (now.seq !== page.seq) { if (attempt < 20) continue; throw new Error(`${label}: the model keeps moving`); }
    const rows = now.sections.flat();
    const slice = rows.slice(page.start, page.start + 90);
    const counts = now.sections.map((section) => section.length);
    const problems = [];
    if (JSON.stringify(page.counts) !== JSON.stringify(counts)) problems.push(`counts ${page.counts} vs ${counts}`);
    if (JSON.stringify(page.ids) !== JSON.stringify(slice.map((row) => row.id))) problems.push(`ids ${page.ids.slice(0, 5)}… vs ${slice.slice(0, 5).map((r) => r.id)}…`);
    if (JSON.stringify(page.titles) !== JSON.stringify(slice.map((row) => row.title))) problems.push('titles differ');
    if (problems.length) throw new Error(`window test: ${label}: the page is not the model's slice at update ${now.seq} (start ${page.start}): ${problems.join('; ')}`);
    return { page, model: now };
  }
}

async function post(base, board, commands) {
  const response = await fetch(`${base}/commands`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seenAt: `${board.stream}#${board.seq}`, commands }),
  });
  if (!response.ok) throw new Error(`window test: commands refused: ${await response.text()}`);
}

// Random commands around the window: adds above it, renames and deletes inside it, moves.
function batch(model, start) {
  const rows = model.sections.flatMap((section, s) => section.map((row, i) => ({ ...row, s, i })));
  const inside = rows.slice(start, start + 90).filter((row) => row.i > 0);  // element 0: the header
  const pick = (list) => list[Math.floor(random() * list.length)];
  const commands = [];
  const used = new Set();
  for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
    const roll = random();
    const card = pick(inside.filter((row) => !used.has(row.id)));
    if (roll < 0.35 || !card) {
      const s = Math.floor(random() * model.sections.length);
      commands.push({ kind: 'add', column: model.sections[s][0].id, index: 0, title: `new ${seed % 1000}` });
    } else if (roll < 0.6) {
      used.add(card.id);
      commands.push({ kind: 'rename', card: card.id, title: `renamed ${seed % 1000}` });
    } else if (roll < 0.8) {
      used.add(card.id);
      commands.push({ kind: 'delete', card: card.id });
    } else {
      used.add(card.id);
      commands.push({ kind: 'move', card: card.id, column: model.sections[0][0].id, index: 0 });
    }
  }
  return commands;
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
await startServer(port);
const browser = await startChromium({ chromium: options.chromium, children, windowSize: '1000,800' });
await browser.send('Page.enable');
await browser.send('Page.navigate', { url: `${base}/window.html` });
let { page, model } = await check(browser, base, 'first sync');
const total = model.sections.reduce((sum, section) => sum + section.length, 0);
console.log(`window test: ${total} rows, first sync ${page.bytes} bytes (${page.ids.length} rows)`);
if (total < options.cards) throw new Error('window test: the board is smaller than asked');

const moveTimes = [];
const targets = [400, 2_000, 2_030, Math.floor(total / 2), total - 30, 50, 0];
for (let round = 0; round < options.rounds; round++) {
  await post(base, model, batch(model, page.start));
  ({ page, model } = await check(browser, base, `round ${round}`));
  if (round % 2 === 1 || round === options.rounds - 1) {
    const row = targets[(round >> 1) % targets.length];
    const began = Date.now();
    await browser.evaluate(`document.getElementById('viewport').scrollTop = ${row * 24}`);
    // The rows on screen must be inside the moved window.
    ({ page, model } = await check(browser, base, `scroll to row ${row}`, (start) => start <= row && row + 25 <= start + 90 || row + 25 > total));
    moveTimes.push(Date.now() - began);
  }
}
const stats = await browser.evaluate(pageState);
if (stats.resyncs !== 0) throw new Error(`window test: the page resynchronized ${stats.resyncs} times`);
const inPage = stats.moveTimes.slice().sort((a, b) => a - b);
const median = (list) => list[Math.floor(list.length / 2)];
console.log(`window test: ok — ${options.rounds} rounds, ${stats.moves} window moves, ${stats.applied} updates applied, ${stats.bytes} bytes received`);
console.log(`window test: a window move, request to rows drawn in the page: ${median(inPage).toFixed(1)} ms at p50, ${inPage.at(-1).toFixed(1)} ms at most (${inPage.length} moves); scroll to checked against GET /board: ${median(moveTimes.sort((a, b) => a - b))} ms at p50`);
clearTimeout(watchdog);
cleanup();
process.exit(0);
