/// Debug-only checks of the coordinator's state, compiled with `SECTIONKIT_INTERNAL_CHECKS`.
extension Coordinator {
  /// Checks what each state (``CoordinatorPhase``) promises beyond what its type already says,
  /// against the buffers it does not hold (the reducer, the presented state, the adapter).
  /// Between batches with an adapter that has been told everything, O(n): what the adapter shows
  /// is the model, and the selection names presented elements only. Elsewhere O(1). A no-op
  /// unless `SECTIONKIT_INTERNAL_CHECKS` is defined.
  func checkInvariants() {
    #if SECTIONKIT_INTERNAL_CHECKS
      precondition(
        coveredLinks.isEmpty || depth > 0,
        "Coordinator: \(coveredLinks.count) inserted sections drop their events outside a batch")
      switch phase {
      case .idle:
        precondition(pendingCommit == nil, "Coordinator: idle with a commit pending")
        precondition(!reducerHoldsEvents, "Coordinator: idle with a reducer at work")
        if adapter != nil { checkPresentedIsModel() }
      case .detached(let stale):
        precondition(adapter == nil, "Coordinator: detached with an adapter attached")
        precondition(!reducerHoldsEvents, "Coordinator: detached with a reducer at work")
        checkStale(stale)
      case .batching(let batch):
        precondition(batch.depth > 0, "Coordinator: batching at depth \(batch.depth)")
        checkBatch(batch)
      case .delivering(let delivery):
        precondition(delivery.batch.depth >= 0, "Coordinator: delivering at a negative depth")
        checkBatch(delivery.batch)
        switch delivery.call {
        case .none, .reloadData: break
        case .apply(let follower):
          precondition(
            (follower != nil) == (pendingCommit != nil),
            "Coordinator: inside apply, a commit is pending: \(pendingCommit != nil), its "
              + "follower: \(follower.map { "\($0)" } ?? "none")")
          guard let follower else { break }
          // A reload may be owed meanwhile (an adapter attached, the tree replaced).
          precondition(
            !batchHasEvents,
            "Coordinator: an event was recorded before the changeset being applied was committed")
          precondition(
            pendingCommit?.changeset.isEmpty == false,
            "Coordinator: an empty changeset is being applied")
          if case .reducer = follower {
            precondition(
              reducerHoldsEvents, "Coordinator: the applied changeset's reducer was retired")
          } else {
            precondition(
              applyingMovesAcross.isEmpty,
              "Coordinator: moves across sections without the reducer that read them off")
          }
        }
        if case .apply = delivery.call {
        } else {
          precondition(
            pendingCommit == nil && applyingMovesAcross.isEmpty,
            "Coordinator: a commit is pending outside apply")
        }
      }
    #endif
  }

  #if SECTIONKIT_INTERNAL_CHECKS
    /// Whether the reducer holds a batch's events (it is open or applying, not retired).
    private var reducerHoldsEvents: Bool {
      batchReducer.events.first != nil || !batchReducer.events.diffs.isEmpty
    }

    /// The open batch: its mapping bracket is counted in its depth, what it recorded is where its
    /// draft says.
    private func checkBatch(_ batch: OpenBatch) {
      precondition(
        !batch.countsMappingBatch || batch.depth >= 1,
        "Coordinator: the mapping's batch is counted at depth \(batch.depth)")
      switch batch.draft {
      case .empty: break
      case .single(let single):
        precondition(
          single.section >= 0 && single.section < presented.counts.count,
          "Coordinator: the batch's single change is in section \(single.section) of "
            + "\(presented.counts.count)")
        precondition(adapter != nil, "Coordinator: a change was recorded with no adapter")
      case .reducing:
        precondition(reducerHoldsEvents, "Coordinator: the batch's reducer is retired")
        precondition(adapter != nil, "Coordinator: a change was reduced with no adapter")
      case .reload(let stale): checkStale(stale)
      }
    }

    /// A stale presented state holds no section, and only while no adapter is attached.
    private func checkStale(_ stale: Bool) {
      guard stale else { return }
      precondition(
        presented.sections.isEmpty, "Coordinator: a stale presented state holds sections")
    }

    /// What the adapter shows is the model, and the selection names presented elements only (at
    /// most one in a single-selection section).
    private func checkPresentedIsModel() {
      precondition(
        presented.counts.count == mapping.numberOfSections,
        "Coordinator: presents \(presented.counts.count) sections, the model has "
          + "\(mapping.numberOfSections)")
      for (index, section) in presented.sections.enumerated() {
        precondition(
          section === mapping.section(at: index),
          "Coordinator: presented section \(index) is not the model's")
        precondition(
          presented.counts[index] == section.numberOfElements,
          "Coordinator: presents \(presented.counts[index]) elements in section \(index), the "
            + "model has \(section.numberOfElements)")
      }
      for entry in handlers.selection.entries.values {
        guard let offset = mapping.sectionOffset(for: entry.section) else {
          preconditionFailure("Coordinator: a section that is not presented has a selection")
        }
        let count = presented.counts[offset]
        precondition(
          zip(entry.indexes, entry.indexes.dropFirst()).allSatisfy { $0 < $1 },
          "Coordinator: the selection of section \(offset) is not ascending and unique")
        precondition(
          entry.indexes.allSatisfy { $0 >= 0 && $0 < count },
          "Coordinator: section \(offset) has a selected index out of 0..<\(count)")
        precondition(
          entry.section.allowsMultipleSelection || entry.indexes.count <= 1,
          "Coordinator: single-selection section \(offset) has \(entry.indexes.count) selected")
      }
    }
  #endif
}
