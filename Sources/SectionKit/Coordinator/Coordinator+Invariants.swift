/// Debug-only checks of the coordinator's state, compiled with `SECTIONKIT_INTERNAL_CHECKS`.
extension Coordinator {
  /// Between batches, with an adapter that has been told everything: what the adapter shows is
  /// the model, and the selection names presented elements only (at most one in a
  /// single-selection section). O(n); a no-op unless `SECTIONKIT_INTERNAL_CHECKS` is defined.
  func checkInvariants() {
    #if SECTIONKIT_INTERNAL_CHECKS
      guard state == .idle, depth == 0, adapter != nil, !needsReload, pendingCommit == nil,
        !batchHasEvents
      else { return }
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
    #endif
  }
}
