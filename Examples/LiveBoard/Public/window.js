// The windowed page: follows /window/events (a window of the board's rows, WindowLineEncoder's
// lines), applies each line with mirror.js's applier, draws the window's rows at their place in
// a scroll area as tall as the whole board, and moves the window (POST /window/move) when the
// view scrolls near its edges.
import { applyChangeset } from './mirror.js';

const ROW = 24;
const LENGTH = 90;
const viewport = document.getElementById('viewport');
const spacer = document.getElementById('spacer');
const list = document.getElementById('rows');
const status = document.getElementById('status');

const state = {
  id: null, stream: null, seq: -1, start: 0, length: LENGTH, counts: [], rows: [],
  applied: 0, moves: 0, resyncs: 0, moving: false, bytes: 0,
  // Milliseconds from a move's request to its rows drawn, and when the one in flight began.
  moveTimes: [], moveBegan: null,
  // The start asked for and not yet applied.
  requested: null,
};
window.liveWindow = state;

const total = () => state.counts.reduce((sum, count) => sum + count, 0);

// The rows of each section inside the window, as WindowMirror checks them.
function coverage(counts, start, length) {
  const end = Math.min(start + length, counts.reduce((a, b) => a + b, 0));
  let offset = 0;
  return counts.map((count) => {
    const low = Math.max(start, offset);
    const high = Math.min(end, offset + count);
    offset += count;
    return Math.max(0, high - low);
  });
}

// New counts: the sections that stay keep theirs (reloaded ones keep their place among them),
// inserted and reloaded ones and changed ones come in `counts`.
function newCounts(old, changes, sent) {
  const expand = (ranges) => (ranges || []).flatMap(([a, b]) => Array.from({ length: b - a }, (_, k) => a + k));
  const moves = changes.movedSections || [];
  const deleted = new Set([...expand(changes.deletedSectionRanges), ...moves.map(([from]) => from)]);
  const inserted = new Set([...expand(changes.insertedSectionRanges), ...moves.map(([, to]) => to)]);
  const staying = old.map((_, index) => index).filter((index) => !deleted.has(index));
  const size = staying.length + inserted.size;
  const counts = new Array(size);
  let next = 0;
  for (let index = 0; index < size; index++) {
    if (!inserted.has(index)) counts[index] = old[staying[next++]];
  }
  for (const [index, count] of sent || []) counts[index] = count;
  if (counts.some((count) => !Number.isInteger(count) || count < 0)) throw new Error('counts do not fit');
  return counts;
}

function apply(line) {
  if (line.type === 'windowSnapshot') {
    state.stream = line.stream;
    state.counts = line.counts;
    state.rows = line.counts.map(() => []);
    line.rows.forEach((rows, k) => { state.rows[line.firstSection + k] = rows; });
  } else {
    const expected = line.type === 'windowMoved' ? state.seq : state.seq + 1;
    if (line.seq !== expected) throw new Error(`update ${line.seq} where ${expected} was expected`);
    const changes = line.changes || {};
    const full = {
      changeset: {
        deletedSectionRanges: changes.deletedSectionRanges || [],
        insertedSectionRanges: changes.insertedSectionRanges || [],
        reloadedSectionRanges: changes.reloadedSectionRanges || [],
        movedSections: (changes.movedSections || []).map(([from, to]) => ({ from, to })),
        deletedElements: changes.deletedElements || [],
        insertedElements: changes.insertedElements || [],
        reloadedElements: changes.reloadedElements || [],
        movedElements: [],
      },
      newSections: (line.sections || []).map(([index, elements]) => ({ index, elements })),
      newElements: (line.elements || []).map(([path, value]) => ({ path, value })),
    };
    const rows = applyChangeset(state.rows, full);
    const counts = newCounts(state.counts, changes, line.counts);
    state.rows = rows;
    state.counts = counts;
  }
  state.seq = line.seq;
  state.start = line.start;
  state.length = line.length;
  const held = coverage(state.counts, state.start, state.length);
  if (held.some((count, index) => state.rows[index].length !== count)) {
    throw new Error('the rows held are not the window');
  }
  state.applied += 1;
}

function render() {
  spacer.style.height = `${total() * ROW}px`;
  list.style.top = `${state.start * ROW}px`;
  const flat = state.rows.flat();
  const items = flat.map((row) => {
    const item = document.createElement('li');
    item.dataset.id = row.id;
    item.dataset.kind = row.kind;
    item.textContent = row.title;
    return item;
  });
  list.replaceChildren(...items);
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.start = String(state.start);
  status.textContent = `update ${state.seq} · rows ${state.start}–${state.start + flat.length} of ${total()}`;
}

// Moves the window when the rows on screen come near its edges.
async function follow() {
  if (state.moving || state.id === null) return;
  const first = Math.floor(viewport.scrollTop / ROW);
  const visible = Math.ceil(viewport.clientHeight / ROW);
  const margin = Math.floor(state.length / 6);
  const end = state.start + state.length;
  const lowHeld = first >= state.start + (state.start > 0 ? margin : 0);
  const highHeld = first + visible <= end - (end < total() ? margin : 0);
  if (lowHeld && highHeld) return;
  const start = Math.max(0, Math.min(first - Math.floor((state.length - visible) / 2), total() - state.length));
  if (start === state.start || start === state.requested) return;
  state.requested = start;
  state.moving = true;
  state.moves += 1;
  state.moveBegan = performance.now();
  try {
    await fetch('/window/move', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: state.id, start }),
    });
  } finally {
    state.moving = false;
  }
  follow();  // the view may have scrolled on meanwhile
}
viewport.addEventListener('scroll', follow);

function connect() {
  const source = new EventSource(`/window/events?start=${state.start}&length=${LENGTH}`);
  source.addEventListener('hello', (event) => { state.id = JSON.parse(event.data).id; });
  source.onmessage = (event) => {
    state.bytes += event.data.length + 1;
    try {
      const line = JSON.parse(event.data);
      apply(line);
      render();
      if (line.type === 'windowMoved') state.requested = null;
      if (line.type === 'windowMoved' && state.moveBegan !== null) {
        state.moveTimes.push(performance.now() - state.moveBegan);
        state.moveBegan = null;
      }
      follow();
    } catch (error) {
      // A line that does not fit: subscribe again for a snapshot of the window.
      state.resyncs += 1;
      status.textContent = `resync: ${error.message}`;
      source.close();
      state.id = null;
      setTimeout(connect, 100);
    }
  };
  source.onerror = () => { status.textContent = 'reconnecting…'; };
}
connect();
