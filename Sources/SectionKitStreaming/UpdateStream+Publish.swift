import Foundation
import SectionKit

/// Publishing a batch: with the values it needs, applied by the stream to its state in place
/// (``UpdatePublisher``'s way, and a follower's), or with the state after it given as well.
extension UpdateStream {
  /// Publishes one batch: `changeset` with the values it needs, and `sections`, the state after
  /// it. Returns the sequence number given to it.
  ///
  /// For a stream you feed by hand that keeps the state itself, with a changeset that fits the
  /// state before it and `sections` the state it leaves, which the stream then shares with you:
  /// ``publish(_:sections:elements:survivors:digest:labels:)`` takes the values only and applies
  /// the changeset to the stream's own state (``UpdatePublisher``'s way).
  ///
  /// - Parameters:
  ///   - changeset: the batch, in UIKit's coordinates, from the state of the last update.
  ///   - newSections: the elements of each section `changeset` inserts or reloads, by its new
  ///     index (`sections:`).
  ///   - elements: the value of each element it inserts and of each reload destination, by new
  ///     index path.
  ///   - survivors: the elements `changeset` deletes that the model kept, by their old index
  ///     path, with the index path each of them has now — an element moved and updated in one
  ///     batch, which a changeset gives as a delete and an insert, or an element of a section it
  ///     deletes and inserts when you know it is the same element. ``resolve(_:at:)`` follows
  ///     them instead of answering that they are gone; subscribers never see them.
  ///     ``UpdatePublisher`` finds them by identity, through its coordinator.
  ///   - sections: the state after `changeset` (`state:`), which new subscribers get as a
  ///     snapshot.
  ///   - digest: the digest of `sections` to send with the changeset, if any
  ///     (``StreamChangeset/digest``).
  ///   - labels: the label of each section `changeset` inserts or reloads that has one, by its
  ///     new index (``StreamChangeset/labels``); the stream follows the others' through it.
  /// - Returns: the sequence number of the changeset (the stream's, unchanged, once finished).
  /// - Precondition: `changeset`, with the elements of the `sections` it inserts, takes the
  ///   section counts of the state before it to those of `state` (a changeset that does not fit
  ///   traps here, naming both); every survivor is an element it deletes (itself or with its
  ///   section) and goes to one it inserts (itself or with its section).
  /// - Complexity: O(1) for any number of subscribers (O(p) every 64 changesets, trimming the
  ///   log), plus O(s + c log c) for s sections and c changes (checking that the changeset
  ///   fits; O(s + c) more when the replay buffer is full).
  ///
  /// Reconfigures (``/SectionKit/Changeset/reconfiguredElements``) are published as reloads: the
  /// wire format has no field for them.
  @discardableResult
  public func publish(
    _ changeset: Changeset, sections newSections: [Int: [Value]] = [:],
    elements: [IndexPath: Value] = [:], survivors: [IndexPath: IndexPath] = [:],
    state sections: [[Value]], digest: StreamDigest? = nil,
    labels: [Int: StreamSectionLabel] = [:]
  ) -> Int {
    // The wire has no reconfigures: each goes out as the reload it is placed as (rule B3).
    let changeset = changeset.reconfiguresAsReloads()
    Self.checkExtras(survivors: survivors, labels: labels, of: changeset, sections: newSections)
    var scheduleWake = false
    let sequence = state.withLock { state -> Int in
      guard !state.isFinished else { return state.sequence }
      Self.checkFits(
        changeset, sequence: state.sequence + 1, before: state.sections, sections: newSections,
        after: sections)
      let update = StreamChangeset(
        sequence: state.sequence + 1, changeset: changeset, sections: newSections,
        elements: elements, digest: digest, labels: labels.filter { !$0.value.isEmpty })
      if state.replay.isEmpty { state.replayBaseCounts = state.sections.map { $0.count } }
      state.sections = sections
      scheduleWake = record(Shared(update, survivors: survivors), labels: labels, &state)
      return state.sequence
    }
    if scheduleWake { Task { self.wakeWaiting() } }
    return sequence
  }

  /// ``publish(_:sections:elements:survivors:state:digest:labels:)`` without the state: the
  /// stream applies `changeset` to the state it holds, in place, with the values given — so a
  /// server (``UpdatePublisher`` is one) keeps no copy of the state of its own. Returns the
  /// sequence number given to it.
  ///
  /// The state is edited where it changes: a batch costs what the changeset changes, not what
  /// the state holds. A section is copied only when a snapshot that holds it
  /// (``snapshot``, a subscriber's, a ``StreamMirror`` made from one) is still alive: the
  /// snapshot keeps the state it was taken of (copy on write).
  ///
  /// - Parameters:
  ///   - changeset: the batch, in UIKit's coordinates, from the state of the last update.
  ///   - newSections: the elements of each section `changeset` inserts or reloads, by its new
  ///     index (`sections:`).
  ///   - elements: the value of each element it inserts and of each reload destination, by new
  ///     index path.
  ///   - survivors: the elements `changeset` deletes that the model kept, old index path → new
  ///     one, as ``publish(_:sections:elements:survivors:state:digest:labels:)`` takes them.
  ///   - digest: the digest of the state after `changeset` to send with it, if any
  ///     (``StreamChangeset/digest``).
  ///   - labels: the label of each section `changeset` inserts or reloads that has one, by its
  ///     new index (``StreamChangeset/labels``); the stream follows the others' through it.
  /// - Returns: the sequence number of the changeset (the stream's, unchanged, once finished).
  /// - Precondition: `changeset` fits the state of the last update, with exactly the values it
  ///   asks for in `newSections` and `elements` (one that does not traps here, naming the field
  ///   and the value); the survivors as in ``publish(_:sections:elements:survivors:state:digest:labels:)``.
  /// - Complexity: O(1) for any number of subscribers (O(p) every 64 changesets, trimming the
  ///   log), plus what ``/SectionKit/Changeset/apply(to:insertedSection:newElement:newSectionCount:)``
  ///   costs applied to the state: O(c log c + s + m) for c changes, s sections and m elements
  ///   an array must move; plus a copy of each section it changes that a live snapshot holds.
  ///
  /// Reconfigures (``/SectionKit/Changeset/reconfiguredElements``) are published as reloads: the
  /// wire format has no field for them.
  @discardableResult
  public func publish(
    _ changeset: Changeset, sections newSections: [Int: [Value]] = [:],
    elements: [IndexPath: Value] = [:], survivors: [IndexPath: IndexPath] = [:],
    digest: StreamDigest? = nil, labels: [Int: StreamSectionLabel] = [:]
  ) -> Int {
    let changeset = changeset.reconfiguresAsReloads()
    Self.checkExtras(survivors: survivors, labels: labels, of: changeset, sections: newSections)
    let update = StreamChangeset(
      sequence: 0, changeset: changeset, sections: newSections, elements: elements,
      digest: digest, labels: labels.filter { !$0.value.isEmpty })
    do {
      return try publishApplying(update, survivors: survivors, labels: labels)
    } catch {
      preconditionFailure(
        "UpdateStream.publish(_:sections:elements:survivors:digest:labels:): the changeset does "
          + "not fit the state of the last update: \(error)")
    }
  }

  /// Publishes `update` — numbered here, the one after the stream's position — by applying it to
  /// the state in place under the lock (``StreamMirror``'s applier: it checks that the changeset
  /// and its values fit, and changes nothing when they do not). Returns its sequence number (the
  /// stream's, unchanged, once finished).
  ///
  /// - Parameters:
  ///   - labels: the labels the stream follows through `update` (``StreamSectionLabel/follow(_:through:newSectionCount:new:)``),
  ///     when they are not `update.labels` (those given, empty ones among them).
  ///   - sequence: the sequence number the caller gave `update`, which must be the next one (a
  ///     follower's); `nil` to number it here.
  /// - Throws: ``StreamMirrorError``, and the stream is unchanged: the sequence number is not the
  ///   next one, or the changeset or its values do not fit the state.
  @discardableResult
  func publishApplying(
    _ update: StreamChangeset<Value>, survivors: [IndexPath: IndexPath] = [:],
    labels: [Int: StreamSectionLabel]? = nil, numbered sequence: Int? = nil
  ) throws(StreamMirrorError) -> Int {
    var update = update
    var scheduleWake = false
    let published = state.withLock { state -> Result<Int, StreamMirrorError> in
      guard !state.isFinished else { return .success(state.sequence) }
      if let sequence, sequence != state.sequence + 1 {
        return .failure(
          sequence > state.sequence + 1
            ? .gap(expected: state.sequence + 1, received: sequence)
            : .outOfOrder(expected: state.sequence + 1, received: sequence))
      }
      update.sequence = state.sequence + 1
      let baseCounts = state.replay.isEmpty ? state.sections.map { $0.count } : nil
      do throws(StreamMirrorError) {
        try StreamMirror.apply(update, to: &state.sections)
      } catch {
        return .failure(error)
      }
      if let baseCounts { state.replayBaseCounts = baseCounts }
      scheduleWake = record(
        Shared(update, survivors: survivors), labels: labels ?? update.labels, &state)
      return .success(state.sequence)
    }
    if scheduleWake { Task { self.wakeWaiting() } }
    return try published.get()
  }

  /// Makes `shared`, the changeset that took the state before it to `state.sections`, the
  /// stream's last update: the labels followed through it (with `labels`, those of the sections
  /// it inserts or reloads), the sequence number, the replay buffer and the log. Returns whether a wake-up pass must be scheduled (``wakeWaiting()``).
  ///
  /// - Complexity: O(1), plus O(s) for s sections when the changeset changes sections or labels,
  ///   plus what ``append(_:toLogOf:)`` costs; O(s + c) more when the replay buffer is full.
  func record(
    _ shared: Shared, labels: [Int: StreamSectionLabel], _ state: inout State
  ) -> Bool {
    state.labels = StreamSectionLabel.follow(
      state.labels, through: shared.update.changeset, newSectionCount: state.sections.count,
      new: labels)
    state.sequence += 1
    state.statistics.published += 1
    if policy.replayCapacity > 0 {
      if state.replay.count == policy.replayCapacity, let oldest = state.replay.popFirst() {
        state.replayBaseCounts = Self.counts(after: oldest.update, from: state.replayBaseCounts)
      }
      state.replay.append(shared)
    }
    append(shared, toLogOf: &state)
    guard !state.waiters.isEmpty && !state.wakeScheduled else { return false }
    state.wakeScheduled = true
    return true
  }

  /// Traps unless `changeset`, with the `sections` it inserts, takes the section counts of
  /// `before` to those of `after`: a changeset that does not fit the state would otherwise be
  /// published, refused by every mirror, and trap later (when the replay buffer drops it, or in
  /// ``resolve(_:at:)``). A programming error of the server.
  ///
  /// - Complexity: O(s + c log c) for s sections and c changes.
  static func checkFits(
    _ changeset: Changeset, sequence: Int, before: [[Value]], sections: [Int: [Value]],
    after: [[Value]]
  ) {
    let oldCounts = before.map { $0.count }
    let newCounts: [Int]
    do {
      newCounts = try changeset.newCounts(
        from: oldCounts, insertedSectionCounts: sections.mapValues(\.count))
    } catch {
      preconditionFailure(
        "UpdateStream.publish(_:sections:elements:survivors:state:digest:labels:): changeset \(sequence) does "
          + "not fit the state before it, of section counts \(describe(counts: oldCounts)): "
          + "\(error)")
    }
    let givenCounts = after.map { $0.count }
    precondition(
      newCounts == givenCounts,
      "UpdateStream.publish(_:sections:elements:survivors:state:digest:labels:): changeset \(sequence) takes "
        + "section counts \(describe(counts: oldCounts)) to \(describe(counts: newCounts)), "
        + "but the state given has section counts \(describe(counts: givenCounts))")
  }

  /// Traps unless every survivor is one of `changeset` (``checkSurvivors(_:of:)``) and every
  /// label is that of a section it sends (`sections`).
  static func checkExtras(
    survivors: [IndexPath: IndexPath], labels: [Int: StreamSectionLabel], of changeset: Changeset,
    sections: [Int: [Value]]
  ) {
    if !survivors.isEmpty { checkSurvivors(survivors, of: changeset) }
    for index in labels.keys {
      precondition(
        sections[index] != nil,
        "UpdateStream.publish(_:sections:elements:survivors:state:digest:labels:): a label for section \(index), which the changeset does not insert "
          + "or reload (sections sent: \(sections.keys.sorted()))")
    }
  }

  /// Traps unless every survivor goes from an element `changeset` deletes (itself or with its
  /// section) to one it inserts (itself or with its section).
  static func checkSurvivors(_ survivors: [IndexPath: IndexPath], of changeset: Changeset) {
    let deleted = Set(changeset.deletedElements)
    let inserted = Set(changeset.insertedElements)
    let (deletedSections, insertedSections) = (
      changeset.deletedSections, changeset.insertedSections
    )
    for (old, new) in survivors.sorted(by: { $0.key < $1.key }) {
      precondition(
        old.count == 2 && new.count == 2
          && (deleted.contains(old) || deletedSections.contains(old[0]))
          && (inserted.contains(new) || insertedSections.contains(new[0])),
        "UpdateStream.publish(_:sections:elements:survivors:state:digest:labels:): survivor \(describe(old)) → "
          + "\(describe(new)) is not a deleted element going to an inserted one of the changeset")
    }
  }
}
