import Foundation
import SectionKitTesting
import Testing

@testable import SectionKit

/// Brackets nested inside adapters' `apply` and providers' own batches: nothing an adapter is
/// told may be lost, whatever nests inside what.
@Suite struct NestedBracketTests {
  /// The shapes of the reproduction, as bits of `variant`.
  struct Variant: CustomStringConvertible, Sendable {
    var raw: Int
    /// `a` starts with an element.
    var aHasElements: Bool { raw & 1 != 0 }
    /// The bracket is the provider's alone (else the root's inside the provider's).
    var providerBracketOnly: Bool { raw & 2 != 0 }
    /// `a` was in the provider before and removed (a reinsertion).
    var reinserted: Bool { raw & 4 != 0 }
    /// `y` is appended after `apply` returns, still inside the bracket (else inside `apply`).
    var appendsAfterApply: Bool { raw & 8 != 0 }
    var description: String { "variant \(raw)" }
  }

  /// Root `[P, m]`, P empty. Inside a bracket of P's, `m.append(x)` is delivered at once (P's
  /// bracket climbs only with its first event), and inside that `apply` a section `a` is inserted
  /// into P; `y` is appended to `a` inside `apply` or after it, still inside the bracket. The
  /// view must end showing the model: a batch opened inside `apply` is delivered when it ends,
  /// not before (delivered early, `y` was lost: the adapter showed `a` empty).
  @Test(arguments: (0..<16).map(Variant.init(raw:)))
  func aSectionInsertedInsideApply_withinAnOpenBracket_keepsItsLaterElements(_ v: Variant) {
    let p = ComposedSectionProvider()
    let m: ArraySection<String> = ["m0", "m1"]
    let root = ComposedSectionProvider()
    root.append(p)
    root.append(m)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = HookedAdapter()
    adapter.inner.strict = true
    coordinator.adapter = adapter
    let a: ArraySection<String> = v.aHasElements ? ["a0"] : []
    if v.reinserted {
      p.append(a)
      p.remove(at: 0)
    }
    let body = {
      adapter.insideApply = { _ in
        p.insert(a, at: 0)
        if !v.appendsAfterApply { a.append("y") }
      }
      m.append("x")
      if v.appendsAfterApply { a.append("y") }
    }
    if v.providerBracketOnly {
      p.performBatchUpdates(body)
    } else {
      p.performBatchUpdates { root.performBatchUpdates(body) }
    }
    let model = [a.elements, m.elements]
    #expect(adapter.inner.failures.isEmpty, "\(v): \(adapter.inner.failures)")
    #expect(adapter.inner.mirrorValues == model, "\(v): \(adapter.log)")
    #expect(coordinator.numberOfElements(inSection: 0) == a.count, "\(v)")
    #expect(coordinator.state == .idle)
  }
}

/// Input by ``ElementReference`` inside a batch that has changed the model: the handler would be
/// handed a model index for an element of the view, so the forms that reach a handler throw
/// `batchInProgress` and change nothing; between batches they act as before.
@Suite struct ReferenceInputInsideBatchTests {
  func tree() -> (ScriptedSection, Coordinator, TestAdapter) {
    let s = ScriptedSection(["a", "b", "c"])
    let root = ComposedSectionProvider()
    root.append(s)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true)
    coordinator.adapter = adapter
    return (s, coordinator, adapter)
  }

  @Test func aPathPastTheSectionsNewEnd_throwsInsteadOfTrappingInTheHandler() {
    let (s, coordinator, _) = tree()
    coordinator.performBatchUpdates {
      s.remove(at: 2)
      s.remove(at: 1)
      #expect(throws: ElementLookupError.batchInProgress) {
        try coordinator.userDidSelect(coordinator.indexPath(for: .indexPath([0, 2])))
      }
    }
    #expect(s.log.isEmpty)
    #expect(coordinator.selectedIndexPaths.isEmpty)
  }

  @Test func aPathShiftedByAnInsert_neverTellsTheHandlerAboutAnotherElement() throws {
    let (s, coordinator, _) = tree()
    coordinator.performBatchUpdates {
      s.insert("z", at: 0)
      #expect(throws: ElementLookupError.batchInProgress) {
        try coordinator.userDidSelect(coordinator.indexPath(for: .indexPath([0, 0])))
      }
      #expect(throws: ElementLookupError.batchInProgress) {
        coordinator.performAction("x", at: try coordinator.indexPath(for: .element(in: s, at: 0)))
      }
      #expect(throws: ElementLookupError.batchInProgress) {
        try coordinator.canMove(coordinator.indexPath(for: .indexPath([0, 1])))
      }
    }
    #expect(s.log.isEmpty)
    #expect(coordinator.selectedIndexPaths.isEmpty)
    // Between batches the same input is taken.
    #expect(try coordinator.userDidSelect(coordinator.indexPath(for: .indexPath([0, 0]))))
    #expect(s.log == ["select z"])
    #expect(coordinator.selectedIndexPaths == [[0, 0]])
  }

  @Test func insideApplyBeforeUpdateData_throws_andAfterIt_isTaken() {
    let s = ScriptedSection(["a", "b"])
    let root = ComposedSectionProvider()
    root.append(s)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = EarlyInputAdapter()
    coordinator.adapter = adapter
    s.insert("z", at: 0)
    #expect(adapter.before == [.batchInProgress])
    #expect(adapter.after == [])
    #expect(s.log == ["select z"])
  }
}

/// Selects `[0, 0]` by reference inside `apply`, before `updateData` and after it.
final class EarlyInputAdapter: ViewAdapter {
  var before: [ElementLookupError] = []
  var after: [ElementLookupError] = []
  func reloadData(from coordinator: Coordinator) {}
  func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    do { try coordinator.userDidSelect(coordinator.indexPath(for: .indexPath([0, 0]))) } catch {
      before.append(error)
    }
    updateData()
    do { try coordinator.userDidSelect(coordinator.indexPath(for: .indexPath([0, 0]))) } catch {
      after.append(error)
    }
  }
}
