// What the browser tests share: waiting with a deadline, a free loopback port, and headless
// Chromium driven over the DevTools protocol.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(what, check, ms = 10_000) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    last = await check();
    if (last) return last;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Chromium over the DevTools protocol.
// `children` collects the processes to kill at the end.
export async function startChromium({ chromium = 'chromium', children, windowSize = '1000,700' }) {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'liveboard-chromium-'));
  const child = spawn(chromium, [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
    `--remote-debugging-address=127.0.0.1`, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`,
    `--window-size=${windowSize}`, 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'ignore'] });
  children.push(child);
  process.on('exit', () => { try { rmSync(profile, { recursive: true, force: true, maxRetries: 3 }); } catch {} });
  const targets = await until('Chromium', async () => {
    try {
      const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      return list.find((target) => target.type === 'page');
    } catch { return null; }
  }, 30_000);
  const socket = new WebSocket(targets.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
  let next = 1;
  const pending = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(JSON.stringify(message.error))); else resolve(message.result);
    }
  };
  const send = (method, params = {}) => new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    socket.send(JSON.stringify({ id, method, params }));
  });
  const evaluate = async (expression) => {
    const result = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (result.exceptionDetails) throw new Error(`page: ${JSON.stringify(result.exceptionDetails)}`);
    return result.result.value;
  };
  return { send, evaluate, close() { socket.close(); child.kill('SIGKILL'); } };
}

