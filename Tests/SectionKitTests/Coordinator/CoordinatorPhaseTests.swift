import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// The coordinator's states (``CoordinatorPhase``), driven through every transition with the
/// invariants checked at each step (``Coordinator/checkInvariants()``, which traps in the
/// internal-checks build), including the calls re-entered from an adapter or a handler.
@Suite struct CoordinatorPhaseTests {
  /// An adapter that records the coordinator's state inside its calls (before and after
  /// `updateData`) and runs the test's hooks there; a strict ``TestAdapter`` checks every
  /// changeset against the model.
  final class ProbeAdapter: ViewAdapter {
    var inner = TestAdapter(strict: true)
    /// What the test adapter found wrong.
    var failures: [String] = []
    var log: [String] = []
    /// Run inside `apply`, before `updateData`.
    var beforeUpdate: ((Coordinator) -> Void)?
    /// Run inside `apply`, after `updateData`.
    var afterUpdate: ((Coordinator) -> Void)?
    /// Run inside `reloadData`.
    var insideReload: ((Coordinator) -> Void)?

    init() {
      inner = TestAdapter(strict: true, onFailure: { [unowned self] in failures.append("\($0)") })
    }

    func reloadData(from coordinator: Coordinator) {
      log.append("reload: \(phase(of: coordinator))")
      coordinator.checkInvariants()
      inner.reloadData(from: coordinator)
      let hook = insideReload
      insideReload = nil
      hook?(coordinator)
    }

    func apply(
      _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
    ) {
      log.append("apply: \(phase(of: coordinator))")
      coordinator.checkInvariants()
      let before = beforeUpdate
      beforeUpdate = nil
      before?(coordinator)
      inner.apply(changeset, from: coordinator) {
        updateData()
        self.log.append("updated: \(phase(of: coordinator))")
        coordinator.checkInvariants()
      }
      let after = afterUpdate
      afterUpdate = nil
      after?(coordinator)
    }

    func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {
      inner.coordinator(coordinator, didSelect: indexPaths)
    }

    func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {
      inner.coordinator(coordinator, didDeselect: indexPaths)
    }
  }

  /// A tree of two sections under one provider, with a probing adapter attached.
  struct Fixture {
    let root = ComposedSectionProvider()
    let a: ArraySection<String> = ["a0", "a1", "a2"]
    let b: ArraySection<String> = ["b0"]
    let coordinator: Coordinator
    let adapter = ProbeAdapter()

    init(attached: Bool = true) {
      root.append(a)
      root.append(b)
      coordinator = Coordinator(sectionProvider: root)
      if attached { coordinator.adapter = adapter }
      adapter.log = []
    }

    /// The view shows the model, and the coordinator is between batches.
    func expectSettled(_ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation)
    {
      coordinator.checkInvariants()
      #expect(adapter.failures.isEmpty, comment, sourceLocation: sourceLocation)
      #expect(
        adapter.inner.mirrorValues == [a.elements, b.elements], comment,
        sourceLocation: sourceLocation)
      #expect(phase(of: coordinator) == "idle", comment, sourceLocation: sourceLocation)
    }
  }

  // MARK: idle ⇄ batching → delivering → idle

  @Test func aBatch_goesFromEmptyToSingleToReducing_andIsDeliveredOnce() {
    let f = Fixture()
    #expect(phase(of: f.coordinator) == "idle")
    f.coordinator.performBatchUpdates {
      #expect(phase(of: f.coordinator) == "batching(1, empty)")
      f.coordinator.checkInvariants()
      f.a.append("a3")
      #expect(phase(of: f.coordinator) == "batching(1, single)")
      f.coordinator.checkInvariants()
      f.root.performBatchUpdates {
        f.b.remove(at: 0)
        #expect(phase(of: f.coordinator) == "batching(2, reducing)")
        f.coordinator.checkInvariants()
      }
      #expect(phase(of: f.coordinator) == "batching(1, reducing)")
    }
    #expect(
      f.adapter.log == [
        "apply: delivering(apply(reducer), 0, empty)",
        "updated: delivering(apply(committed), 0, empty)",
      ])
    f.expectSettled()
  }

  @Test func aSingleChangeOutsideABatch_isDeliveredAtOnce_followedUntilUpdateData() {
    let f = Fixture()
    f.adapter.beforeUpdate = { coordinator in
      // The adapter still shows the old state; the model has a0 removed.
      #expect(coordinator.numberOfElements(inSection: 0) == 3)
      #expect(coordinator.sectionAndIndex(for: IndexPath(item: 1, section: 0)).index == 0)
    }
    f.a.remove(at: 0)
    #expect(
      f.adapter.log == [
        "apply: delivering(apply(single), 0, empty)",
        "updated: delivering(apply(committed), 0, empty)",
      ])
    f.expectSettled()
  }

  @Test func anInvalidateAll_makesTheBatchAReload() {
    let f = Fixture()
    f.coordinator.performBatchUpdates {
      f.a.append("a3")
      f.a.append("a4")
      #expect(phase(of: f.coordinator) == "batching(1, reducing)")
      f.a.updateDelegate?.invalidateAll(f.a)
      #expect(phase(of: f.coordinator) == "batching(1, reload)")
      f.coordinator.checkInvariants()
      f.a.append("a5")
      #expect(phase(of: f.coordinator) == "batching(1, reload)")
    }
    #expect(f.adapter.log == ["reload: delivering(reloadData, 0, empty)"])
    f.expectSettled()
  }

  // MARK: detached

  @Test func withoutAnAdapter_aChangeDetaches_andTheNextAdapterReloads() {
    let f = Fixture(attached: false)
    #expect(phase(of: f.coordinator) == "idle")
    f.a.append("a3")
    #expect(phase(of: f.coordinator) == "detached(stale)")
    f.coordinator.checkInvariants()
    // Asked, the stale presented state is read again from the model.
    #expect(f.coordinator.numberOfElements(inSection: 0) == 4)
    #expect(phase(of: f.coordinator) == "detached")
    f.coordinator.performBatchUpdates {
      #expect(phase(of: f.coordinator) == "batching(1, reload)")
      f.b.append("b1")
      #expect(phase(of: f.coordinator) == "batching(1, reload(stale))")
    }
    #expect(phase(of: f.coordinator) == "detached(stale)")
    f.coordinator.adapter = f.adapter
    #expect(f.adapter.log == ["reload: delivering(reloadData, 0, empty)"])
    f.expectSettled()
  }

  @Test func anAdapterRemovedAfterTheBatchRecorded_leavesTheCoordinatorDetached() {
    let f = Fixture()
    f.coordinator.performBatchUpdates {
      f.a.append("a3")
      f.a.append("a4")
      #expect(phase(of: f.coordinator) == "batching(1, reducing)")
      f.coordinator.adapter = nil
      // What the batch recorded will never be applied: dropped at once.
      #expect(phase(of: f.coordinator) == "batching(1, reload(stale))")
      f.coordinator.checkInvariants()
    }
    #expect(phase(of: f.coordinator) == "detached(stale)")
    f.coordinator.checkInvariants()
    #expect(f.coordinator.numberOfElements(inSection: 0) == 5)
    f.coordinator.adapter = f.adapter
    f.expectSettled()
  }

  @Test func anAdapterAttachedInsideABatch_dropsItsEvents_forAReload() {
    let f = Fixture(attached: false)
    f.coordinator.performBatchUpdates {
      f.coordinator.adapter = f.adapter
      #expect(phase(of: f.coordinator) == "batching(1, reload)")
      f.a.append("a3")
      #expect(phase(of: f.coordinator) == "batching(1, reload)")
    }
    #expect(f.adapter.log == ["reload: delivering(reloadData, 0, empty)"])
    f.expectSettled()
  }

  // MARK: Re-entered from the adapter

  @Test func aChangeInsideApply_beforeUpdateData_commitsIt_andIsTheNextBatch() {
    let f = Fixture()
    f.adapter.beforeUpdate = { coordinator in
      f.b.append("b1")
      #expect(phase(of: coordinator) == "delivering(apply(committed), 0, single)")
      coordinator.checkInvariants()
    }
    f.a.append("a3")
    #expect(
      f.adapter.log == [
        "apply: delivering(apply(single), 0, empty)",
        // The adapter's own `updateData` comes after the commit the change forced: a no-op.
        "updated: delivering(apply(committed), 0, single)",
        "apply: delivering(apply(single), 0, empty)",
        "updated: delivering(apply(committed), 0, empty)",
      ])
    // The test adapter sees the coordinator answer the new counts before its `updateData`
    // (the change committed the changeset early): the one thing it finds wrong.
    #expect(f.adapter.failures.count == 1)
    #expect(f.adapter.failures.allSatisfy { $0.contains("before updateData") })
    f.adapter.failures = []
    f.expectSettled()
  }

  @Test func aBracketOpenedInsideApply_andStillOpen_goesOnBatching() {
    let f = Fixture()
    var end: (() -> Void)?
    f.adapter.afterUpdate = { coordinator in
      coordinator.beginBatch()
      f.b.append("b1")
      #expect(phase(of: coordinator) == "delivering(apply(committed), 1, single)")
      end = { coordinator.endBatch() }
    }
    f.a.append("a3")
    #expect(phase(of: f.coordinator) == "batching(1, single)")
    f.coordinator.checkInvariants()
    f.b.append("b2")
    #expect(phase(of: f.coordinator) == "batching(1, reducing)")
    end?()
    f.expectSettled()
  }

  @Test func aTreeReplacedInsideApply_stopsFollowingTheChangeset_andReloads() {
    let f = Fixture()
    let other: ArraySection<String> = ["o0"]
    f.adapter.beforeUpdate = { coordinator in
      let root = ComposedSectionProvider()
      root.append(other)
      coordinator.replace(sectionProvider: root)
      #expect(phase(of: coordinator) == "delivering(apply(dropped), 0, reload)")
      coordinator.checkInvariants()
    }
    f.a.append("a3")
    #expect(f.adapter.log.last == "reload: delivering(reloadData, 0, empty)")
    #expect(phase(of: f.coordinator) == "idle")
    #expect(f.adapter.inner.mirrorValues == [other.elements])
  }

  @Test func aReloadInsideReloadData_isDeliveredAfterIt() {
    let f = Fixture()
    f.adapter.insideReload = { coordinator in
      f.a.append("a3")
      #expect(phase(of: coordinator) == "delivering(reloadData, 0, single)")
    }
    f.a.updateDelegate?.invalidateAll(f.a)
    #expect(
      f.adapter.log == [
        "reload: delivering(reloadData, 0, empty)",
        "apply: delivering(apply(single), 0, empty)",
        "updated: delivering(apply(committed), 0, empty)",
      ])
    f.expectSettled()
  }

  @Test func inputInsideApply_beforeUpdateData_throws() {
    let f = Fixture()
    var thrown: ElementLookupError?
    f.adapter.beforeUpdate = { coordinator in
      do throws(ElementLookupError) {
        _ = try coordinator.userDidSelect(
          coordinator.indexPath(for: .indexPath(IndexPath(item: 0, section: 0))))
      } catch {
        thrown = error
      }
    }
    f.a.append("a3")
    #expect(thrown == .batchInProgress)
    f.expectSettled()
  }

  // MARK: Re-entered from a handler (between adapter calls)

  @Test func aChangeFromAHandler_whileDelivering_isDeliveredByANestedFlush() {
    let section = ScriptedSection(["s0", "s1"])
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = ProbeAdapter()
    coordinator.adapter = adapter
    #expect(coordinator.userDidSelect(IndexPath(item: 0, section: 0)))
    adapter.log = []
    var seen: String?
    section.onDeselect = { section, _ in
      seen = phase(of: coordinator)
      section.append("s2")
    }
    section.remove(at: 0)
    #expect(seen == "delivering(none, 0, empty)")
    #expect(
      adapter.log == [
        "apply: delivering(apply(single), 0, empty)",
        "updated: delivering(apply(committed), 0, empty)",
        "apply: delivering(apply(single), 0, empty)",
        "updated: delivering(apply(committed), 0, empty)",
      ])
    #expect(adapter.failures.isEmpty)
    #expect(adapter.inner.mirrorValues == [section.elements])
    #expect(phase(of: coordinator) == "idle")
    coordinator.checkInvariants()
  }

  // MARK: Calls that trap

  @Test func callsThatTrap_inTheWrongState() async {
    // A batch ended that never began.
    await #expect(processExitsWith: .failure) {
      let coordinator = Coordinator(sectionProvider: ComposedSectionProvider())
      coordinator.endBatch()
    }
    // An adapter move reported while a changeset is being applied.
    await #expect(processExitsWith: .failure) {
      let f = Fixture()
      f.adapter.beforeUpdate = { coordinator in
        coordinator.moveElement(
          from: IndexPath(item: 0, section: 0), to: IndexPath(item: 1, section: 0))
      }
      f.a.append("a3")
    }
    // The value of an element the changeset being applied deleted.
    await #expect(processExitsWith: .failure) {
      let f = Fixture()
      f.adapter.beforeUpdate = { coordinator in
        _ = coordinator.sectionAndIndex(for: IndexPath(item: 0, section: 0))
      }
      f.a.remove(at: 0)
    }
  }
}

/// The coordinator's phase in a few words, for comparing in tests.
func phase(of coordinator: Coordinator) -> String {
  func draft(_ draft: BatchDraft) -> String {
    switch draft {
    case .empty: return "empty"
    case .single: return "single"
    case .reducing: return "reducing"
    case .reload(let stale): return stale ? "reload(stale)" : "reload"
    }
  }
  switch coordinator.phase {
  case .idle: return "idle"
  case .detached(let stale): return stale ? "detached(stale)" : "detached"
  case .batching(let batch): return "batching(\(batch.depth), \(draft(batch.draft)))"
  case .delivering(let delivery):
    let call: String
    switch delivery.call {
    case .none: call = "none"
    case .reloadData: call = "reloadData"
    case .apply(nil): call = "apply(committed)"
    case .apply(let follower?):
      switch follower {
      case .reducer: call = "apply(reducer)"
      case .single: call = "apply(single)"
      case .dropped: call = "apply(dropped)"
      }
    }
    return "delivering(\(call), \(delivery.batch.depth), \(draft(delivery.batch.draft)))"
  }
}
