// node --test Examples/LiveBoard/Tests — mirror.js against the corpus the Swift tests write
// (Tests/Corpus/changesets.json): on every entry, JavaScript must refuse what Swift refuses and
// otherwise leave the same mirror.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Mirror, MirrorError, applyChangeset, fnv1a, pairsHash } from '../Public/mirror.js';

const corpus = JSON.parse(readFileSync(new URL('./Corpus/changesets.json', import.meta.url), 'utf8'));

test('the corpus is not empty and has both outcomes', () => {
  assert.ok(corpus.length > 100);
  assert.ok(corpus.some((entry) => entry.after === null));
  assert.ok(corpus.some((entry) => entry.line.changeset.movedSections?.length > 0));
  assert.ok(corpus.some((entry) => entry.line.changeset.reloadedElements?.length > 0));
});

test('mirror.js agrees with StreamMirror on every entry', () => {
  for (const entry of corpus) {
    const before = structuredClone(entry.before);
    if (entry.after === null) {
      assert.throws(() => applyChangeset(before, entry.line), MirrorError, entry.name);
    } else {
      assert.deepEqual(applyChangeset(before, entry.line), entry.after, entry.name);
    }
    assert.deepEqual(before, entry.before, `${entry.name}: the mirror changed`);
  }
});

test('UIKit batch semantics: deletes in old coordinates, inserts in new, moves', () => {
  const sections = [['a', 'b', 'c', 'd'], ['x']];
  const line = {
    changeset: {
      deletedElements: [[0, 0], [0, 2]],
      insertedElements: [[0, 0]],
      movedElements: [{ from: [0, 3], to: [1, 0] }],
      reloadedElements: [[0, 1]],
    },
    newElements: [{ path: [0, 0], value: 'n' }, { path: [0, 1], value: 'B' }],
  };
  assert.deepEqual(applyChangeset(sections, line), [['n', 'B'], ['d', 'x']]);
  const sectionsMoved = applyChangeset([['h1'], ['h2'], ['h3']], {
    changeset: { movedSections: [{ from: 0, to: 2 }] },
  });
  assert.deepEqual(sectionsMoved, [['h2'], ['h3'], ['h1']]);
});

test('Mirror refuses gaps, duplicates and changesets before a snapshot, unchanged', () => {
  const mirror = new Mirror();
  const changeset = (seq) => ({ v: 1, type: 'changeset', seq, changeset: { insertedElements: [[0, 0]] }, newElements: [{ path: [0, 0], value: seq }] });
  assert.throws(() => mirror.apply(changeset(2)), /before any snapshot/);
  mirror.apply({ v: 1, type: 'snapshot', seq: 1, stream: 's', sections: [[]] });
  assert.throws(() => mirror.apply(changeset(3)), (error) => error.resync === 'resume');
  mirror.apply(changeset(2));
  assert.throws(() => mirror.apply(changeset(2)), /out of order/);
  assert.throws(() => mirror.apply({ v: 1, type: 'changeset', seq: 3, changeset: { insertedElements: [[0, 5]] }, newElements: [{ path: [0, 5], value: 0 }] }), MirrorError);
  assert.throws(() => mirror.apply({ v: 2, type: 'changeset', seq: 3 }), /version/);
  assert.deepEqual(mirror.sections, [[2]]);
  assert.equal(mirror.position, 's#2');
  mirror.apply({ v: 1, type: 'snapshot', seq: 1, stream: 'restarted', sections: [] });
  assert.equal(mirror.position, 'restarted#1');
});

test('hostile payloads are refused without throwing anything but MirrorError', () => {
  const base = [['a', 'b']];
  const hostile = [
    { changeset: null }, { changeset: { insertedSectionRanges: [[0, 2 ** 40]] } },
    { changeset: { deletedElements: [[0, -1]] } }, { changeset: { deletedElements: [['0', 1]] } },
    { changeset: { movedElements: [{ from: [0, 0] }] } }, { changeset: { deletedSectionRanges: [[1, 0]] } },
    { changeset: { insertedElements: [[0, 9]] }, newElements: [{ path: [0, 9], value: 1 }] },
    { changeset: { deletedElements: [[0, 0], [0, 0]] } }, { changeset: {}, newElements: [{ path: [0, 0], value: 1 }] },
  ];
  for (const line of hostile) {
    assert.throws(() => applyChangeset(base, line), MirrorError, JSON.stringify(line));
  }
  assert.deepEqual(base, [['a', 'b']]);
});

// The same vectors are checked against SectionKit's StreamDigest by the Swift tests
// (StreamCodecTests), so that both hash identities alike.
test('fnv1a hashes identities as StreamDigest does', () => {
  assert.equal(fnv1a([]), 'cbf29ce484222325');
  assert.equal(fnv1a(['a', 'b']), 'd2b371819297f98a');
  assert.equal(fnv1a(['ab', 'c']), '20ba9b3025a8b421');
  assert.equal(fnv1a(['Zoë', '7']), 'f40d1808729f062f');
});

// The same vectors as StreamDigestTests.vectors, computed from the documented definition.
test('pairsHash hashes identities as StreamDigest.pairsHash does (version 3)', () => {
  assert.equal(pairsHash([]), '88201fb960ff6465');
  assert.equal(pairsHash(['a', 'b']), 'cd191be4d27f2c41');
  assert.equal(pairsHash(['b', 'a']), '252cd7ddac42a815');
  assert.equal(pairsHash(['ab', 'c']), 'b1f3b0170ed1f749');
  assert.equal(pairsHash(['Zoë', '7']), 'b9fd4d72c60acfc1');
});

test('a changeset line with a digest of version 3 is checked against the state after it', () => {
  const mirror = new Mirror();
  mirror.apply({ v: 1, type: 'snapshot', seq: 1, stream: 's', sections: [['a']] });
  const insert = (seq, value, digest, at = seq - 1) => ({
    v: 3, type: 'changeset', seq, digest,
    changeset: { insertedElements: [[0, at]] }, newElements: [{ path: [0, at], value }],
  });
  mirror.apply(insert(2, 'b', [[2, 'cd191be4d27f2c41']]));
  assert.deepEqual(mirror.sections, [['a', 'b']]);
  // The order counts: the pairs of [b, a] are not those of [a, b].
  for (const digest of [[[3, pairsHash(['a', 'c', 'b'])]], [[3, fnv1a(['a', 'b', 'c'])]]]) {
    assert.throws(() => mirror.apply(insert(3, 'c', digest)), (error) => error instanceof MirrorError && error.field === 'digest');
    assert.deepEqual(mirror.sections, [['a', 'b']]);
  }
  mirror.apply(insert(3, 'c', [[3, pairsHash(['a', 'b', 'c'])]]));
  assert.deepEqual(mirror.sections, [['a', 'b', 'c']]);
  assert.throws(() => mirror.apply({ ...insert(4, 'd', [[4, pairsHash(['a', 'b', 'c', 'd'])]]), v: 4 }), /version/);
});

test('a changeset line with a digest (version 2) is checked against the state after it', () => {
  const mirror = new Mirror();
  mirror.apply({ v: 1, type: 'snapshot', seq: 1, stream: 's', sections: [['a']] });
  const insert = (seq, value, digest, at = seq - 1) => ({
    v: 2, type: 'changeset', seq, digest,
    changeset: { insertedElements: [[0, at]] }, newElements: [{ path: [0, at], value }],
  });
  mirror.apply(insert(2, 'b', [[2, 'd2b371819297f98a']]));
  assert.deepEqual(mirror.sections, [['a', 'b']]);
  // Another state: refused whole, the mirror unchanged, a snapshot asked for.
  for (const digest of [[[3, fnv1a(['a', 'b', 'x'])]], [[3, 'cbf29ce484222325']], [[3]], [], 'x']) {
    assert.throws(() => mirror.apply(insert(3, 'c', digest)), (error) => error instanceof MirrorError && error.field.startsWith('digest') && error.resync === 'snapshot');
    assert.deepEqual(mirror.sections, [['a', 'b']]);
    assert.equal(mirror.position, 's#2');
  }
  // A version 2 line without a digest, or a digest on a version 1 line, is refused.
  assert.throws(() => mirror.apply({ ...insert(3, 'c', undefined), v: 2 }), /version/);
  assert.throws(() => mirror.apply({ ...insert(3, 'c', [[3, fnv1a(['a', 'b', 'c'])]]), v: 1 }), /version/);
  mirror.apply(insert(3, 'c', [[3, fnv1a(['a', 'b', 'c'])]]));
  assert.deepEqual(mirror.sections, [['a', 'b', 'c']]);
  // Values without an identity: only the counts are compared, unless the mirror is given one.
  const cards = new Mirror({ identity: (card) => card.id });
  cards.apply({ v: 1, type: 'snapshot', seq: 1, stream: 't', sections: [[{ id: 'a' }]] });
  assert.throws(() => cards.apply({ ...insert(2, { id: 'x' }, [[2, fnv1a(['a', 'b'])]]) }), /digest/);
  cards.apply({ ...insert(2, { id: 'b' }, [[2, fnv1a(['a', 'b'])]]) });
  assert.deepEqual(cards.sections, [[{ id: 'a' }, { id: 'b' }]]);
});
