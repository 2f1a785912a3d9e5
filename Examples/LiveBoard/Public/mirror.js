// mirror.js — a client of SectionKitStreaming's JSON-lines format (Docs/Streaming.md), with no
// dependency and no build step: it runs in a browser and under Node (`node --test`).
//
// A mirror holds what the server's model presents — an array of sections of values — and
// applies a snapshot, then each changeset, with UIKit's batch semantics: section and element
// deletes and reloads in old coordinates, inserts and reload destinations in new ones, moves from
// old to new, every other element keeping its relative order. It is a port of SectionKit's
// `Changeset.apply(to:insertedSection:newElement:newSectionCount:)` and `StreamMirror`: a
// changeset that does not fit is refused whole (a `MirrorError` naming the field) and the mirror
// is left as it was; the client then reconnects for a snapshot.

/** A refused update: the mirror is unchanged. `resync` is "snapshot" or "resume". */
export class MirrorError extends Error {
  constructor(field, value, reason, resync = 'snapshot') {
    super(`${field} ${value}: ${reason}`);
    this.name = 'MirrorError';
    this.field = field;
    this.value = value;
    this.reason = reason;
    this.resync = resync;
  }
}

const MAX_SEQUENCE = 2 ** 53 - 1;
const SECTION_LIMIT = 1 << 20;

function fail(field, value, reason, resync) {
  throw new MirrorError(field, typeof value === 'string' ? value : JSON.stringify(value), reason, resync);
}

function isIndex(value) {
  return Number.isSafeInteger(value) && value >= 0;
}

function checkPath(path, field) {
  if (!Array.isArray(path) || path.length !== 2 || !isIndex(path[0]) || !isIndex(path[1])) {
    fail(field, path, 'a path is [section, element], both 0 or more');
  }
  return path;
}

function checkRanges(ranges, field) {
  if (ranges === undefined) return [];
  if (!Array.isArray(ranges)) fail(field, ranges, 'expected an array of [lower, upper]');
  let previous = -1;
  for (const range of ranges) {
    if (!Array.isArray(range) || range.length !== 2 || !isIndex(range[0]) || !isIndex(range[1]) ||
        range[0] >= range[1] || range[0] <= previous) {
      fail(field, range, 'ranges are half-open, non-empty, sorted, disjoint and not adjacent');
    }
    previous = range[1];
  }
  return ranges;
}

function list(value, field) {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(field, value, 'expected an array');
  return value;
}

function expand(ranges) {
  const result = [];
  for (const [lower, upper] of ranges) for (let i = lower; i < upper; i++) result.push(i);
  return result;
}

/** UIKit's slot arithmetic: where old position `old` lands when `removed` (old positions) leave
 *  and `fixed` (new positions) are taken; both ascending, without duplicates. */
function destination(old, removed, fixed) {
  let rank = old;
  for (const position of removed) {
    if (position >= old) break;
    rank -= 1;
  }
  return slot(rank, fixed);
}

/** The `rank`-th new position (from 0) that none of `fixed` (ascending) takes. */
function slot(rank, fixed) {
  let result = rank;
  for (const position of fixed) {
    if (position > result) break;
    result += 1;
  }
  return result;
}

function sortedUnique(values) {
  return [...new Set(values)].sort((a, b) => a - b);
}

/** The wire changeset, checked for shape: every field an array, every path [s, i]. */
function readChangeset(wire) {
  if (wire === null || typeof wire !== 'object' || Array.isArray(wire)) {
    fail('changeset', wire, 'expected an object');
  }
  const deletedSections = checkRanges(wire.deletedSectionRanges, 'deletedSections');
  const insertedSections = checkRanges(wire.insertedSectionRanges, 'insertedSections');
  const reloadedSections = checkRanges(wire.reloadedSectionRanges, 'reloadedSections');
  const movedSections = list(wire.movedSections, 'movedSections').map((move) => {
    if (!move || !isIndex(move.from) || !isIndex(move.to)) fail('movedSections', move, 'expected {from, to}');
    return { from: move.from, to: move.to };
  });
  const deletedElements = list(wire.deletedElements, 'deletedElements').map((p) => checkPath(p, 'deletedElements'));
  const insertedElements = list(wire.insertedElements, 'insertedElements').map((p) => checkPath(p, 'insertedElements'));
  const reloadedElements = list(wire.reloadedElements, 'reloadedElements').map((p) => checkPath(p, 'reloadedElements'));
  const movedElements = list(wire.movedElements, 'movedElements').map((move) => {
    if (!move) fail('movedElements', move, 'expected {from, to}');
    return { from: checkPath(move.from, 'movedElements'), to: checkPath(move.to, 'movedElements') };
  });
  return {
    deletedSections, insertedSections, reloadedSections, movedSections,
    deletedElements, insertedElements, reloadedElements, movedElements,
  };
}

/** Where each reloaded element lands (SectionKit's `reloadedElementDestinations`). */
function reloadedDestinations(c) {
  const sectionRemoved = sortedUnique([...expand(c.deletedSections), ...c.movedSections.map((m) => m.from)]);
  const sectionFixed = sortedUnique([...expand(c.insertedSections), ...c.movedSections.map((m) => m.to)]);
  const movedTo = new Map();
  for (const move of c.movedSections) if (!movedTo.has(move.from)) movedTo.set(move.from, move.to);
  const deletes = new Map();
  const inserts = new Map();
  for (const [s, i] of c.deletedElements) (deletes.get(s) ?? deletes.set(s, []).get(s)).push(i);
  for (const [s, i] of c.insertedElements) (inserts.get(s) ?? inserts.set(s, []).get(s)).push(i);
  return c.reloadedElements.map(([s, i]) => {
    const section = movedTo.has(s) ? movedTo.get(s) : destination(s, sectionRemoved, sectionFixed);
    const removed = sortedUnique(deletes.get(s) ?? []);
    const fixed = sortedUnique(inserts.get(section) ?? []);
    return [section, destination(i, removed, fixed)];
  });
}

/**
 * `sections` after the changeset `c` (as read by `readChangeset`), asking `insertedSection(new)`
 * and `newElement([s, i])` for the values; throws a MirrorError (SectionKit's
 * `ChangesetMismatch` fields) when it does not fit. Never changes `sections`.
 */
function applyPlan(c, sections, insertedSection, newElement) {
  const oldCounts = sections.map((s) => s.length);
  const oldSections = oldCounts.length;
  for (const [field, ranges] of [['deletedSections', c.deletedSections], ['reloadedSections', c.reloadedSections]]) {
    for (const range of ranges) {
      if (range[1] > oldSections) fail(field, range, `out of the old range 0..<${oldSections}`);
    }
  }
  const deleted = new Set(expand(c.deletedSections));
  const reloaded = new Set(expand(c.reloadedSections));
  let newSections = oldSections - deleted.size;
  for (const range of c.insertedSections) newSections += range[1] - range[0];
  if (newSections > SECTION_LIMIT) fail('insertedSections', c.insertedSections, 'too many sections');
  for (const range of c.insertedSections) {
    if (range[1] > newSections) fail('insertedSections', range, `out of the new range 0..<${newSections}`);
  }
  for (const section of reloaded) {
    if (deleted.has(section)) fail('reloadedSections', section, `section ${section} is also deleted`);
  }
  const leaving = new Set([...deleted, ...reloaded]);
  const arriving = new Set(expand(c.insertedSections));
  for (const move of c.movedSections) {
    const text = `${move.from} → ${move.to}`;
    if (move.from >= oldSections) fail('movedSections', text, `${move.from} is out of the old range 0..<${oldSections}`);
    if (move.to >= newSections) fail('movedSections', text, `${move.to} is out of the new range 0..<${newSections}`);
    if (leaving.has(move.from)) fail('movedSections', text, `section ${move.from} is deleted, reloaded or moved twice`);
    if (arriving.has(move.to)) fail('movedSections', text, `section ${move.to} is inserted or a destination twice`);
    leaving.add(move.from);
    arriving.add(move.to);
  }
  const deletedList = sortedUnique([...deleted]);
  const insertedList = sortedUnique(expand(c.insertedSections));
  for (const section of reloaded) {
    const target = destination(section, deletedList, insertedList);
    if (target >= newSections || arriving.has(target)) {
      fail('reloadedSections', section, `its destination ${target} is out of range or taken by an insert or a move`);
    }
    arriving.add(target);
  }
  const newToOld = new Array(newSections).fill(null);
  const oldToNew = new Map();
  for (const move of c.movedSections) {
    newToOld[move.to] = move.from;
    oldToNew.set(move.from, move.to);
  }
  // Staying sections keep their order, in the new positions nothing arrives at.
  const arrivingList = sortedUnique([...arriving]);
  let target = 0;
  let cursor = 0;
  for (let old = 0; old < oldSections; old++) {
    if (leaving.has(old)) continue;
    while (cursor < arrivingList.length && arrivingList[cursor] === target) {
      cursor += 1;
      target += 1;
    }
    newToOld[target] = old;
    oldToNew.set(old, target);
    target += 1;
  }

  // Elements.
  const touched = new Map(); // old section → { removed: [], fixed: [{index, source}] }
  const entry = (s) => touched.get(s) ?? touched.set(s, { removed: [], fixed: [] }).get(s);
  const removedPaths = new Set();
  const leaveOld = ([s, i], field) => {
    const text = `[${s}, ${i}]`;
    if (s >= oldSections) fail(field, text, `section ${s} is out of the old range 0..<${oldSections}`);
    if (deleted.has(s) || reloaded.has(s)) fail(field, text, `section ${s} is deleted or reloaded whole`);
    if (i >= oldCounts[s]) fail(field, text, `element ${i} is out of range 0..<${oldCounts[s]} of old section ${s}`);
    if (removedPaths.has(text)) fail(field, text, 'the element leaves twice (deleted, reloaded or moved)');
    removedPaths.add(text);
    entry(s).removed.push(i);
  };
  const arrivals = [];
  const arriveNew = ([s, i], field, source, text) => {
    if (s >= newSections || newToOld[s] === null) {
      fail(field, text, `section ${s} is out of the new range 0..<${newSections}, or inserted or reloaded whole`);
    }
    arrivals.push({ section: newToOld[s], index: i, source });
  };
  for (const path of c.deletedElements) leaveOld(path, 'deletedElements');
  const destinations = reloadedDestinations(c);
  c.reloadedElements.forEach((path, k) => {
    leaveOld(path, 'reloadedElements');
    arriveNew(destinations[k], 'reloadedElements', null, `[${path[0]}, ${path[1]}]`);
  });
  for (const move of c.movedElements) {
    leaveOld(move.from, 'movedElements');
    arriveNew(move.to, 'movedElements', move.from, `[${move.from}] → [${move.to}]`);
  }
  for (const path of c.insertedElements) arriveNew(path, 'insertedElements', null, `[${path[0]}, ${path[1]}]`);
  for (const arrival of arrivals) entry(arrival.section).fixed.push({ index: arrival.index, source: arrival.source });
  for (const [old, e] of touched) {
    e.removed.sort((a, b) => a - b);
    e.fixed.sort((a, b) => a.index - b.index);
    const newCount = oldCounts[old] - e.removed.length + e.fixed.length;
    const target = oldToNew.get(old);
    e.fixed.forEach((arrival, k) => {
      const field = 'insertedElements, movedElements or reloadedElements';
      if (arrival.index >= newCount) {
        fail(field, `[${target}, ${arrival.index}]`, `element ${arrival.index} is out of range 0..<${newCount} of new section ${target}`);
      }
      if (k > 0 && e.fixed[k - 1].index === arrival.index) {
        fail(field, `[${target}, ${arrival.index}]`, 'two elements arrive at the same path');
      }
    });
  }

  // Everything fits: build the new sections.
  const result = [];
  for (let s = 0; s < newSections; s++) {
    const old = newToOld[s];
    if (old === null) {
      result.push(insertedSection(s));
      continue;
    }
    const e = touched.get(old);
    if (!e) {
      result.push(sections[old]);
      continue;
    }
    const removed = new Set(e.removed);
    const survivors = [];
    for (let i = 0; i < oldCounts[old]; i++) if (!removed.has(i)) survivors.push(sections[old][i]);
    const elements = [];
    const count = survivors.length + e.fixed.length;
    let nextSurvivor = 0;
    let nextFixed = 0;
    for (let i = 0; i < count; i++) {
      if (nextFixed < e.fixed.length && e.fixed[nextFixed].index === i) {
        const source = e.fixed[nextFixed].source;
        elements.push(source === null ? newElement([s, i]) : sections[source[0]][source[1]]);
        nextFixed += 1;
      } else {
        elements.push(survivors[nextSurvivor]);
        nextSurvivor += 1;
      }
    }
    result.push(elements);
  }
  return result;
}

/**
 * The sections after applying the changeset line `line` (a parsed JSON object of type
 * "changeset") to `sections`; throws a MirrorError when it, or the values sent with it, do not
 * fit. `sections` is never changed.
 */
export function applyChangeset(sections, line) {
  const c = readChangeset(line.changeset);
  const newSections = new Map();
  for (const entry of list(line.newSections, 'newSections')) {
    if (!entry || !isIndex(entry.index) || !Array.isArray(entry.elements) || newSections.has(entry.index)) {
      fail('newSections', entry, 'expected {index, elements}, each index once');
    }
    newSections.set(entry.index, entry.elements);
  }
  const newElements = new Map();
  for (const entry of list(line.newElements, 'newElements')) {
    if (!entry || !('value' in entry)) fail('newElements', entry, 'expected {path, value}');
    const [s, i] = checkPath(entry.path, 'newElements');
    const key = `${s},${i}`;
    if (newElements.has(key)) fail('newElements', entry.path, 'a path given twice');
    newElements.set(key, entry.value);
  }
  let inserted = 0;
  for (const range of c.insertedSections) inserted += range[1] - range[0];
  if (inserted > newSections.size) {
    fail('insertedSections', c.insertedSections, `more sections inserted than the ${newSections.size} sent with their elements`);
  }
  let usedSections = 0;
  let usedElements = 0;
  const result = applyPlan(c, sections,
    (index) => {
      if (!newSections.has(index)) fail('sections', index, `the elements of new section ${index} are missing`);
      usedSections += 1;
      return newSections.get(index).slice();
    },
    ([s, i]) => {
      const key = `${s},${i}`;
      if (!newElements.has(key)) fail('elements', `[${s}, ${i}]`, 'the value of the new element is missing');
      usedElements += 1;
      return newElements.get(key);
    });
  if (usedSections !== newSections.size) {
    fail('sections', [...newSections.keys()], `${newSections.size - usedSections} section(s) sent that the changeset does not insert or reload`);
  }
  if (usedElements !== newElements.size) {
    fail('elements', `${newElements.size} values`, `${newElements.size - usedElements} value(s) sent for no inserted or reloaded element`);
  }
  return result;
}

/**
 * A client's copy of the model: `sections`, and the position of the last update applied
 * (`stream`, `seq`). `apply(line)` takes one parsed JSON line — a snapshot replaces everything,
 * a changeset must be the one after `seq` and fit — or throws a MirrorError and changes nothing.
 */
/**
 * The FNV-1a 64 hash of the identities `ids` (strings), as SectionKit's `StreamDigest` computes
 * it: the UTF-8 bytes of each identity followed by the byte 0xFF, from 0xcbf29ce484222325, each
 * byte xored in then multiplied by 0x100000001b3 modulo 2^64; 16 lowercase hexadecimal digits.
 */
export function fnv1a(ids) {
  let h = 0xcbf29ce484222325n;
  const encoder = new TextEncoder();
  for (const id of ids) {
    for (const b of encoder.encode(id)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
    h = ((h ^ 0xffn) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

/** FNV-1a 64 of `bytes`, from `h`. */
function fnv(bytes, h = 0xcbf29ce484222325n) {
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

/** The 8 bytes of `h`, least significant first. */
function littleEndian(h) {
  return Array.from({ length: 8 }, (_, i) => Number((h >> BigInt(8 * i)) & 0xffn));
}

/**
 * The hash of a section of identities `ids` in a version 3 digest, as SectionKit's
 * `StreamDigest.pairsHash` computes it: with h(id) the FNV-1a 64 of the identity's UTF-8 bytes
 * and h(boundary) = 0, the sum modulo 2^64 of FNV-1a 64 over the 16 bytes of h(a) then h(b)
 * (each least significant byte first), for each pair of neighbours a, b of
 * boundary, ids…, boundary; 16 lowercase hexadecimal digits.
 */
export function pairsHash(ids) {
  const encoder = new TextEncoder();
  const hashes = [0n, ...ids.map((id) => fnv(encoder.encode(id))), 0n];
  let sum = 0n;
  for (let i = 1; i < hashes.length; i++) {
    sum += fnv([...littleEndian(hashes[i - 1]), ...littleEndian(hashes[i])]);
  }
  return (sum & 0xffffffffffffffffn).toString(16).padStart(16, '0');
}

/**
 * The identity a digest hashes for `value`, as `StreamMirror`'s default does: a string is its own
 * identity, an integer its decimal digits; anything else has none (give the mirror an `identity`).
 */
function defaultIdentity(value) {
  if (typeof value === 'string') return value;
  if (Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * Checks `digest` (a version 2 or 3 line's field) against `sections`, the state after the
 * changeset: version 2 hashes each section with `fnv1a`, version 3 with `pairsHash`.
 */
function checkDigest(digest, sections, identity, version) {
  const hash = version === 2 ? fnv1a : pairsHash;
  if (!Array.isArray(digest) || digest.length !== sections.length) {
    fail('digest', digest, `expected one entry per section (${sections.length})`);
  }
  digest.forEach((entry, index) => {
    if (!Array.isArray(entry) || entry.length !== 2 || !isIndex(entry[0]) || typeof entry[1] !== 'string' || !/^[0-9a-f]{16}$/.test(entry[1])) {
      fail(`digest[${index}]`, entry, 'expected [count, "16 hexadecimal digits"]');
    }
  });
  const ids = sections.map((elements) => elements.map(identity));
  // Without an identity for every element there is nothing to compare but the counts.
  const hashes = ids.every((list) => list.every((id) => typeof id === 'string'));
  sections.forEach((elements, index) => {
    const [count] = digest[index];
    if (count !== elements.length) {
      fail('digest', digest, `section ${index} holds ${elements.length} elements, the server's ${count}: the mirror is not the server's state`);
    }
    if (hashes && hash(ids[index]) !== digest[index][1]) {
      fail('digest', digest, `section ${index}'s identities hash to ${hash(ids[index])}, the server's to ${digest[index][1]}: the mirror is not the server's state`);
    }
  });
}

export class Mirror {
  /**
   * `identity(value)`: the string a digest hashes for an element (by default a string itself,
   * an integer its decimal digits); a changeset line that carries a digest (version 2 or 3) is checked
   * against the state after it, and refused, the mirror unchanged, when they differ.
   */
  constructor({ identity = defaultIdentity } = {}) {
    this.sections = [];
    this.stream = null;
    this.seq = null;
    this.identity = identity;
  }

  /** `stream#seq`, the id to resume after; null before the first snapshot. */
  get position() {
    return this.stream === null ? null : `${this.stream}#${this.seq}`;
  }

  apply(line) {
    if (line === null || typeof line !== 'object') fail('line', line, 'expected an object');
    // Versions 2 and 3 are changeset lines with a digest (of two kinds); everything else is
    // version 1.
    const versions = line.type === 'changeset' && line.digest !== undefined ? [2, 3] : [1];
    if (!versions.includes(line.v)) fail('v', line.v, `unsupported version (expected ${versions.join(' or ')})`);
    if (!isIndex(line.seq) || line.seq > MAX_SEQUENCE) fail('seq', line.seq, 'out of range 0 … 2^53 − 1');
    if (line.type === 'snapshot') {
      if (typeof line.stream !== 'string' || line.stream.length === 0 || line.stream.length > 256) {
        fail('stream', line.stream, 'expected 1 to 256 characters');
      }
      if (!Array.isArray(line.sections) || !line.sections.every(Array.isArray)) {
        fail('sections', '…', 'expected an array of arrays');
      }
      if (this.stream === line.stream && line.seq <= this.seq) {
        fail('seq', line.seq, `out of order: expected ${this.seq + 1} or later`, 'resume');
      }
      this.sections = line.sections.map((s) => s.slice());
      this.stream = line.stream;
      this.seq = line.seq;
      return 'snapshot';
    }
    if (line.type !== 'changeset') fail('type', line.type, 'expected "snapshot" or "changeset"');
    if (this.stream === null) fail('seq', line.seq, 'a changeset before any snapshot');
    if (line.seq > this.seq + 1) fail('seq', line.seq, `gap: expected ${this.seq + 1}`, 'resume');
    if (line.seq < this.seq + 1) fail('seq', line.seq, `out of order: expected ${this.seq + 1}`, 'resume');
    const sections = applyChangeset(this.sections, line);
    if (line.digest !== undefined) checkDigest(line.digest, sections, this.identity, line.v);
    this.sections = sections;
    this.seq = line.seq;
    return 'changeset';
  }
}

/**
 * Follows `url` (a `GET /events` endpoint) with an EventSource, keeping `mirror` current and
 * calling `onChange(mirror, kind)` after every update applied. A refused update closes the source
 * and opens a new one — with `?after=` the mirror's position for a gap, without for a changeset
 * that does not fit — so the server answers with the missing changesets or a snapshot.
 * Returns `{ close(), stats }`.
 */
export function follow(url, mirror, { onChange = () => {}, onStatus = () => {}, EventSourceClass = globalThis.EventSource } = {}) {
  // `times`: milliseconds to apply each update and run onChange (render), the last 10,000.
  const stats = { snapshots: 0, changesets: 0, refused: 0, connections: 0, lastError: null, times: [] };
  let source = null;
  let closed = false;
  const open = (after) => {
    if (closed) return;
    const target = new URL(url, globalThis.location?.href ?? 'http://localhost/');
    if (after) target.searchParams.set('after', after);
    source = new EventSourceClass(target.toString());
    stats.connections += 1;
    const handle = (event) => {
      let line;
      try {
        const start = globalThis.performance?.now() ?? 0;
        line = JSON.parse(event.data);
        const kind = mirror.apply(line);
        stats[kind === 'snapshot' ? 'snapshots' : 'changesets'] += 1;
        onChange(mirror, kind, line);
        stats.times.push((globalThis.performance?.now() ?? 0) - start);
        if (stats.times.length > 10000) stats.times.shift();
      } catch (error) {
        stats.refused += 1;
        stats.lastError = String(error);
        onStatus('resync', String(error));
        source.close();
        open(error instanceof MirrorError && error.resync === 'resume' ? mirror.position : null);
      }
    };
    source.addEventListener('snapshot', handle);
    source.addEventListener('message', handle);
    source.addEventListener('open', () => onStatus('open'));
    source.addEventListener('error', () => {
      // CLOSED: the server answered 204 (the stream is finished) or an error status: stop.
      // CONNECTING: the browser reconnects by itself, sending Last-Event-ID.
      onStatus(source.readyState === 2 ? 'closed' : 'reconnecting');
    });
  };
  open(mirror.position);
  return {
    stats,
    close() {
      closed = true;
      source?.close();
    },
  };
}

/**
 * Renders `sections` of a LiveBoard (element 0 of each section is the column's header, the rest
 * are cards) into `root`: one `<section data-id>` per column with an `<h2>` and a `<ul>` of
 * `<li data-id>`. Reuses the nodes of columns and cards that stay, and skips a column whose
 * elements array is the one it rendered last (the mirror keeps the arrays of the sections a
 * changeset does not touch), so a change costs about the size of the sections it touches.
 */
export function renderBoard(root, sections) {
  const document = root.ownerDocument;
  const existing = root._liveBoardNodes ?? new Map();
  const nodes = new Map();
  let previous = null;
  for (const elements of sections) {
    const header = elements[0] ?? { id: '?', title: '' };
    let column = existing.get(header.id);
    if (!column) {
      column = document.createElement('section');
      column.dataset.id = header.id;
      column.className = 'column';
      column.append(document.createElement('h2'), document.createElement('ul'));
    }
    nodes.set(header.id, column);
    if (column._liveBoardElements !== elements) {
      const title = column.firstChild;
      if (title.textContent !== header.title) title.textContent = header.title;
      renderCards(column.lastChild, elements);
      column._liveBoardElements = elements;
    }
    const wanted = previous ? previous.nextSibling : root.firstChild;
    if (wanted !== column) root.insertBefore(column, wanted);
    previous = column;
  }
  for (const [id, node] of existing) if (!nodes.has(id)) node.remove();
  root._liveBoardNodes = nodes;
}

function renderCards(list, elements) {
  const document = list.ownerDocument;
  const existing = list._liveBoardNodes ?? new Map();
  const nodes = new Map();
  let previous = null;
  for (let k = 1; k < elements.length; k++) {
    const card = elements[k];
    let item = existing.get(card.id);
    if (!item) {
      item = document.createElement('li');
      item.dataset.id = card.id;
    }
    nodes.set(card.id, item);
    if (item._liveBoardCard !== card) {
      if (item.textContent !== card.title) item.textContent = card.title;
      item._liveBoardCard = card;
    }
    const wanted = previous ? previous.nextSibling : list.firstChild;
    if (wanted !== item) list.insertBefore(item, wanted);
    previous = item;
  }
  for (const [id, node] of existing) if (!nodes.has(id)) node.remove();
  list._liveBoardNodes = nodes;
}
