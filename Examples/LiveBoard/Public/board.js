// The page: follows /events with mirror.js and sends what you do to /commands, with the position
// the paths were seen at (the server resolves them if the board moved on meanwhile).
import { Mirror, follow, renderBoard } from './mirror.js';

const root = document.getElementById('board');
const status = document.getElementById('status');
const mirror = new Mirror();

window.liveBoard = {
  mirror,
  applied: 0,
  connection: follow('/events', mirror, {
    onChange() {
      renderBoard(root, mirror.sections, mirror.labels);
      window.liveBoard.applied += 1;
      document.body.dataset.seq = String(mirror.seq);
      document.body.dataset.stream = mirror.stream;
      status.textContent = `update ${mirror.seq}`;
    },
    onStatus(state, detail) {
      status.textContent = detail ? `${state}: ${detail}` : state;
    },
  }),
};

async function send(commands) {
  const response = await fetch('/commands', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seenAt: mirror.position, commands }),
  });
  if (!response.ok) status.textContent = `refused: ${(await response.json()).error}`;
}

function pathOf(item) {
  const column = item.closest('section');
  const s = [...root.children].indexOf(column);
  const i = [...column.querySelectorAll('li')].indexOf(item) + 1;
  return [s, i];
}

root.addEventListener('click', (event) => {
  const item = event.target.closest('li');
  if (!item) return;
  const [s, i] = pathOf(item);
  if (event.altKey) return void send([{ kind: 'delete', card: [s, i] }]);
  const next = (s + 1) % mirror.sections.length;
  send([{ kind: 'move', card: [s, i], column: next, index: 0 }]);
});
root.addEventListener('dblclick', (event) => {
  const item = event.target.closest('li');
  if (!item) return;
  const title = prompt('Rename', item.textContent);
  if (title) send([{ kind: 'rename', card: pathOf(item), title }]);
});
document.getElementById('add').addEventListener('click', () => {
  const input = document.getElementById('title');
  if (input.value.trim()) send([{ kind: 'add', column: 0, index: 0, title: input.value }]);
  input.value = '';
});
document.getElementById('segment-week').addEventListener('click', () => send([{ kind: 'segment', segment: 'week' }]));
document.getElementById('segment-later').addEventListener('click', () => send([{ kind: 'segment', segment: 'later' }]));
