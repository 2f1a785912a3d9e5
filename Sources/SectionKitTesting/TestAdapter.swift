import Foundation
import SectionKit

/// A ``/SectionKit/ViewAdapter`` for tests: a simulated view that checks every changeset the way
/// UIKit would.
///
/// The adapter keeps a mirror of what a view shows — the number of elements in each section
/// (``mirrorCounts``) and, through an element reader, the elements themselves (``mirrorValues``).
/// On ``reloadData(from:)`` it reads everything afresh. On
/// ``apply(_:from:updateData:)`` it
/// 1. remembers the counts it shows and checks that the coordinator answers the same ones;
/// 2. calls `updateData()` and reads the new counts from the coordinator;
/// 3. validates the changeset with ``BatchValidator`` (errors fail; strict warnings fail when
///    ``strict`` is on);
/// 4. replays it onto the mirror as UIKit would (moved cells keep their old content, inserted
///    cells, reload destinations and reconfigure destinations read the model: a reconfigure is
///    checked and replayed as the reload an adapter that does not tell them apart makes) and
///    compares the result with a fresh read of the model;
/// 5. encodes it to JSON and decodes it again, which must give the same changeset (decoding
///    checks the invariants every changeset keeps, see `Changeset`'s `Codable` conformance) —
///    always when ``strict`` is on, otherwise for every batch without a violation (a batch UIKit
///    accepts but that is not canonical, such as a duplicate reload, does not decode).
///
/// Anything wrong **fails the running test** — Swift Testing or XCTest — with UIKit's exception
/// text, the changeset and the batch's events, and is kept in ``failures``. Outside a test (a
/// benchmark, the demo) it is printed to standard error; pass `onFailure` to handle it yourself.
///
/// ```swift
/// let fruit: ArraySection<String> = ["apple", "banana"]
/// let root = ComposedSectionProvider()
/// root.append(fruit)
/// let coordinator = Coordinator(sectionProvider: root)
/// let view = TestAdapter()
/// coordinator.adapter = view                // view.reloadCount == 1
///
/// fruit.performBatchUpdates {
///   fruit.append("cherry")
///   fruit.remove(at: 0)
/// }
/// view.mirrorValues                         // [["banana", "cherry"]]
/// view.assertLastChangeset(
///   equals: Changeset(deletedElements: [[0, 0]], insertedElements: [[0, 1]]))
/// ```
///
/// The adapter holds no reference to the coordinator.
///
/// - Complexity: each batch costs O(n + k log k) for n elements shown and k operations (the model
///   is read in full to compare); without an element reader, O(s + k log k) for s sections.
public final class TestAdapter: ViewAdapter {
  /// Reads the identity and content of the element at a local index of a section, e.g. `"id@v2"`.
  public typealias ElementReader = (any Section, Int) -> String

  /// Whether strict warnings (non-canonical but accepted batches) fail too.
  public var strict: Bool
  /// Rules whose violations do not fail, whatever ``strict`` says: a test that expects one
  /// known warning tolerates that rule and keeps every other check strict.
  ///
  /// ```swift
  /// let view = TestAdapter(strict: true, tolerating: [.reloadCombinedWithMoves])
  /// ```
  ///
  /// A batch with a tolerated violation is still replayed and compared (unless the violation is
  /// an error: its positions cannot be trusted), but not round-tripped through JSON (a
  /// non-canonical changeset, such as a duplicate reload, does not decode).
  public var toleratedRules: Set<BatchViolation.Rule>
  /// The validator, with the UIKit model it reproduces.
  public let validator: BatchValidator
  /// Whether the adapter answers ``showsSelected(_:)`` (default `true`), as a view that keeps
  /// its own selection does. Set it to `false` to test against an adapter that does not say:
  /// the coordinator then never tells it of program code's selections.
  public var answersShowsSelected = true
  /// Called with every failure; by default ``reportToTestFramework(_:)``.
  public var onFailure: (TestAdapterFailure) -> Void

  let elementReader: ElementReader?
  let location: TestSourceLocation

  /// The number of elements the simulated view shows in each section.
  public internal(set) var mirrorCounts: [Int] = []
  /// The elements the simulated view shows, as read by the element reader (empty when the adapter
  /// has no reader).
  public internal(set) var mirrorValues: [[String]] = []
  /// The counts read at each reload, oldest first.
  public internal(set) var reloads: [[Int]] = []
  /// Every changeset applied, oldest first (none when ``recordsChangesets`` is `false`): the
  /// changesets themselves when ``keepsChangesets`` is `true`, otherwise copies that share no
  /// storage with them.
  public internal(set) var changesets: [Changeset] = []
  /// Whether the adapter holds on to the changesets the coordinator hands it (default `false`).
  ///
  /// A view that animates a batch and returns lets its changeset go, and the coordinator then
  /// writes the next batch's changeset into the same storage. One that keeps changesets (to
  /// animate later, to log them) makes the coordinator allocate afresh. The two paths differ, so
  /// a test should cover the one its production adapter takes; an invalid changeset was once
  /// visible only to adapters that let changesets go, which is why that is the default. With
  /// `false`, ``changesets`` records copies that share no storage with the coordinator's.
  /// Randomized tests should run both ways.
  public var keepsChangesets = false
  /// Whether ``changesets`` records each changeset applied (default `true`). Set it to `false`
  /// for a long run: every changeset is still validated and replayed.
  public var recordsChangesets = true
  /// The number of changesets applied, whether ``changesets`` records them or not.
  public internal(set) var applyCount = 0
  /// Which elements the simulated view shows selected, per section. Like a collection view's
  /// selection it follows every changeset (moves, inserts and deletes before an element; a
  /// deleted element leaves it, a reloaded one stays), is cleared by a reload, and changes on
  /// `coordinator(_:didSelect:)` / `coordinator(_:didDeselect:)` (which program code's
  /// selections reach, see ``showsSelected(_:)``) and the simulated user input
  /// (``userSelect(_:in:)``, ``userDeselect(_:in:)``, ``userMove(from:to:in:)``).
  public internal(set) var mirrorSelection: [[Bool]] = []
  /// The index paths of every `coordinator(_:didSelect:)` call, oldest first.
  public internal(set) var selections: [[IndexPath]] = []
  /// The index paths of every `coordinator(_:didDeselect:)` call, oldest first.
  public internal(set) var deselections: [[IndexPath]] = []
  /// Every failure found, oldest first (each was also passed to ``onFailure``).
  public internal(set) var failures: [TestAdapterFailure] = []

  /// Creates a test adapter.
  ///
  /// - Parameters:
  ///   - strict: Whether strict warnings fail (default `false`: only what UIKit rejects or shows
  ///     wrongly fails).
  ///   - tolerating: Rules whose violations do not fail (``toleratedRules``).
  ///   - model: The UIKit behaviour to reproduce where versions differ.
  ///   - elementReader: Reads an element's identity and content; `nil` mirrors counts only. The
  ///     default, ``describeElement(_:at:)``, uses `String(describing:)` of the elements of
  ///     `ArraySection` and `SingleElementSection`.
  ///   - onFailure: Handles each failure; `nil` reports it to the running test framework
  ///     (``reportToTestFramework(_:)``).
  ///   - fileID: The file ID of where batch failures are reported; by default, the line
  ///     creating the adapter.
  ///   - filePath: The path of that file.
  ///   - line: The line to report batch failures on.
  ///   - column: The column to report batch failures at.
  public init(
    strict: Bool = false, tolerating: Set<BatchViolation.Rule> = [],
    model: BatchValidator.Model = .modern,
    elementReader: ElementReader? = TestAdapter.describeElement(_:at:),
    onFailure: ((TestAdapterFailure) -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    self.strict = strict
    self.toleratedRules = tolerating
    self.validator = BatchValidator(model: model)
    self.elementReader = elementReader
    self.onFailure = onFailure ?? TestAdapter.reportToTestFramework(_:)
    self.location = TestSourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    TestFailureReporter.startObservingXCTest()
  }

  /// The default element reader: `String(describing:)` of the element for an `ArraySection` or
  /// `SingleElementSection` (SectionKit's `describeElement(of:at:)`), `"•"` for other sections,
  /// whose values are then not compared.
  public static func describeElement(_ section: any Section, at index: Int) -> String {
    SectionKit.describeElement(of: section, at: index) ?? "•"
  }

  /// Reports `failure` to the running test (Swift Testing or XCTest), or prints it to standard
  /// error when no test is running. The default ``onFailure``.
  public static func reportToTestFramework(_ failure: TestAdapterFailure) {
    TestFailureReporter.report(failure.description, at: failure.location)
  }

  // MARK: History

  /// The number of reloads.
  public var reloadCount: Int { reloads.count }

  /// The most recent changeset, if any.
  public var lastChangeset: Changeset? { changesets.last }

  /// Forgets the recorded reloads, changesets (and ``applyCount``), selections, deselections and
  /// failures; the mirror stays.
  public func removeAllHistory() {
    reloads.removeAll()
    changesets.removeAll()
    applyCount = 0
    selections.removeAll()
    deselections.removeAll()
    failures.removeAll()
  }

  // MARK: ViewAdapter

  /// Reads the coordinator's counts and elements afresh.
  ///
  /// - Complexity: O(n) for n elements (O(s) for s sections without an element reader).
  public func reloadData(from coordinator: Coordinator) {
    mirrorCounts = Self.readCounts(coordinator)
    mirrorValues = readValues(coordinator, counts: mirrorCounts)
    mirrorSelection = mirrorCounts.map { Array(repeating: false, count: $0) }
    reloads.append(mirrorCounts)
  }

  /// Validates, replays and compares one batch; see the type's documentation.
  public func apply(
    _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
  ) {
    applyCount += 1
    if recordsChangesets {
      changesets.append(keepsChangesets ? changeset : Self.detachedCopy(of: changeset))
    }
    let events = coordinator.currentBatchEvents
    let oldCounts = mirrorCounts
    var kinds: [TestAdapterFailure.Kind] = []
    var details: [String] = []
    let answeredOld = Self.readCounts(coordinator)
    if answeredOld != oldCounts {
      kinds.append(.staleDataSource)
      details.append(
        "before updateData the coordinator answers counts \(answeredOld), but the view shows "
          + "\(oldCounts)")
    }

    updateData()
    let newCounts = Self.readCounts(coordinator)
    let newValues = readValues(coordinator, counts: newCounts)
    let batch = NormalizedBatch(
      changeset: changeset, oldCounts: oldCounts, newCounts: newCounts, model: validator.model)
    let counted = batch.violations.filter { !toleratedRules.contains($0.rule) }
    let failing = strict ? counted : counted.filter(\.isError)
    if !failing.isEmpty { kinds.insert(.invalidChangeset, at: 0) }
    if let problem = Self.sectionSetsProblem(changeset) {
      kinds.append(.inconsistentSectionSets)
      details.append(problem)
    }
    // A tolerated violation (a duplicate reload, say) may be one decoding refuses.
    if counted.count == batch.violations.count && (strict || batch.violations.isEmpty),
      let problem = Self.roundTripProblem(changeset)
    {
      kinds.append(.notCodable)
      details.append(problem)
    }
    var mismatch: ReplayMismatch?
    if elementReader != nil && !batch.hasErrors && answeredOld == oldCounts {
      let replayed = BatchValidator.replay(
        batch, old: mirrorValues, newValues: { newValues[$0[0]][$0[1]] }, newCounts: newCounts)
      mismatch = BatchValidator.firstMismatch(replayed, newValues)
      if mismatch != nil { kinds.append(.replayMismatch) }
    }
    if !batch.hasErrors && mirrorSelection.map(\.count) == oldCounts {
      var keptByReload: [IndexPath: Bool] = [:]
      for (from, to) in batch.reloadDestinations {
        guard let oldItem = from.item, let newItem = to.item else { continue }
        keptByReload[IndexPath(item: newItem, section: to.section)] =
          mirrorSelection[from.section][oldItem]
      }
      mirrorSelection = BatchValidator.replay(
        batch, old: mirrorSelection, newValues: { keptByReload[$0] ?? false },
        newCounts: newCounts)
    } else {
      mirrorSelection = newCounts.map { Array(repeating: false, count: $0) }
    }
    // Show the model from now on, so that one bad batch does not fail every later one.
    mirrorCounts = newCounts
    mirrorValues = newValues

    guard !kinds.isEmpty else { return }
    let failure = TestAdapterFailure(
      kinds: kinds, violations: failing, mismatch: mismatch, changeset: changeset,
      events: events, oldCounts: oldCounts, newCounts: newCounts, details: details,
      location: location)
    failures.append(failure)
    onFailure(failure)
  }

  /// Where a changeset's section sets (what `deleteSections(_:)`, `insertSections(_:)` and
  /// `reloadSections(_:)` take) disagree with its section ranges, which the validation reads.
  static func sectionSetsProblem(_ changeset: Changeset) -> String? {
    let parts = [
      ("deletedSections", changeset.deletedSections, changeset.deletedSectionRanges),
      ("insertedSections", changeset.insertedSections, changeset.insertedSectionRanges),
      ("reloadedSections", changeset.reloadedSections, changeset.reloadedSectionRanges),
    ]
    for (name, sections, ranges) in parts {
      var fromRanges = IndexSet()
      for range in ranges { fromRanges.insert(integersIn: range) }
      if sections != fromRanges {
        return "\(name) is \(Array(sections)), but its ranges \(ranges) hold \(Array(fromRanges))"
      }
    }
    return nil
  }

  /// Records the selection and marks the elements selected in ``mirrorSelection``.
  public func coordinator(_ coordinator: Coordinator, didSelect indexPaths: [IndexPath]) {
    selections.append(indexPaths)
    for path in indexPaths { setMirrorSelection(path, true, "didSelect") }
  }

  /// Records the deselection and marks the elements deselected in ``mirrorSelection``.
  public func coordinator(_ coordinator: Coordinator, didDeselect indexPaths: [IndexPath]) {
    deselections.append(indexPaths)
    for path in indexPaths { setMirrorSelection(path, false, "didDeselect") }
  }

  /// What ``mirrorSelection`` shows for `indexPath` (`nil` for a path the view does not show,
  /// or when ``answersShowsSelected`` is `false`), as a collection view answers from its own
  /// selection.
  ///
  /// Answering lets the coordinator skip telling the view what it already shows; program code's
  /// `coordinator.selectElement(at:)` and `coordinator.deselectElement(at:)` reach the view
  /// (`coordinator(_:didSelect:)`), so the simulated selection shows what the coordinator has,
  /// and so do the deprecated `coordinator.select(_:)` and `deselect(_:)`, which ask it.
  public func showsSelected(_ indexPath: IndexPath) -> Bool? {
    guard answersShowsSelected, indexPath.count == 2,
      mirrorSelection.indices.contains(indexPath[0]),
      mirrorSelection[indexPath[0]].indices.contains(indexPath[1])
    else { return nil }
    return mirrorSelection[indexPath[0]][indexPath[1]]
  }

  // MARK: Simulated user input

  /// The elements ``mirrorSelection`` shows selected, sorted.
  public var mirrorSelectedIndexPaths: [IndexPath] {
    mirrorSelection.enumerated().flatMap { section, flags in
      flags.indices.filter { flags[$0] }.map { IndexPath(item: $0, section: section) }
    }
  }

  /// The user taps an unselected element: the view selects it, then reports it with
  /// `coordinator.userDidSelect(_:)`, and deselects it again when the coordinator refuses.
  @discardableResult
  public func userSelect(_ indexPath: IndexPath, in coordinator: Coordinator) -> Bool {
    setMirrorSelection(indexPath, true, "userSelect")
    let selected = coordinator.userDidSelect(indexPath)
    if !selected { setMirrorSelection(indexPath, false, "userSelect") }
    return selected
  }

  /// The user taps a selected element: the view deselects it, then reports it with
  /// `coordinator.userDidDeselect(_:)`, and selects it again when the coordinator refuses.
  @discardableResult
  public func userDeselect(_ indexPath: IndexPath, in coordinator: Coordinator) -> Bool {
    setMirrorSelection(indexPath, false, "userDeselect")
    let deselected = coordinator.userDidDeselect(indexPath)
    if !deselected { setMirrorSelection(indexPath, true, "userDeselect") }
    return deselected
  }

  /// The user drags an element from `from` towards `proposed`: the view asks
  /// `coordinator.targetIndexPath(forMoveFrom:proposed:)`, moves the element (its value and
  /// selection) in the mirror — into another section when the coordinator lets it — then reports
  /// the move with `coordinator.moveElement(from:to:)`.
  ///
  /// - Returns: where the element went, or `nil` when it cannot move.
  @discardableResult
  public func userMove(from: IndexPath, to proposed: IndexPath, in coordinator: Coordinator)
    -> IndexPath?
  {
    guard let target = coordinator.targetIndexPath(forMoveFrom: from, proposed: proposed) else {
      return nil
    }
    guard target != from else { return target }
    if target[0] != from[0], mirrorCounts.indices.contains(from[0]),
      mirrorCounts.indices.contains(target[0])
    {
      mirrorCounts[from[0]] -= 1
      mirrorCounts[target[0]] += 1
    }
    if mirrorValues.indices.contains(from[0]), mirrorValues.indices.contains(target[0]) {
      mirrorValues[target[0]].insert(mirrorValues[from[0]].remove(at: from[1]), at: target[1])
    }
    if mirrorSelection.indices.contains(from[0]), mirrorSelection.indices.contains(target[0]) {
      mirrorSelection[target[0]].insert(
        mirrorSelection[from[0]].remove(at: from[1]), at: target[1])
    }
    coordinator.moveElement(from: from, to: target)
    return target
  }

  private func setMirrorSelection(_ path: IndexPath, _ selected: Bool, _ operation: String) {
    guard path.count == 2, mirrorSelection.indices.contains(path[0]),
      mirrorSelection[path[0]].indices.contains(path[1])
    else {
      let failure = TestAdapterFailure(
        kinds: [.staleDataSource], violations: [], mismatch: nil, changeset: Changeset(),
        events: [], oldCounts: mirrorCounts, newCounts: mirrorCounts,
        details: ["\(operation) names \(path), which the view does not show"],
        location: location)
      failures.append(failure)
      onFailure(failure)
      return
    }
    mirrorSelection[path[0]][path[1]] = selected
  }

  /// A changeset equal to `changeset` whose lists share no storage with it, so that keeping it
  /// does not keep the coordinator from reusing `changeset`'s storage.
  ///
  /// - Complexity: O(k) for k operations.
  static func detachedCopy(of changeset: Changeset) -> Changeset {
    var copy = Changeset(
      movedSections: changeset.movedSections.map { $0 },
      deletedElements: changeset.deletedElements.map { $0 },
      insertedElements: changeset.insertedElements.map { $0 },
      reloadedElements: changeset.reloadedElements.map { $0 },
      movedElements: changeset.movedElements.map { $0 },
      reconfiguredElements: changeset.reconfiguredElements.map { $0 })
    // Ranges as they are, even in a changeset whose ranges overlap (a section set would merge
    // them).
    if !changeset.deletedSectionRanges.isEmpty {
      copy.deletedSectionRanges = changeset.deletedSectionRanges.map { $0 }
    }
    if !changeset.insertedSectionRanges.isEmpty {
      copy.insertedSectionRanges = changeset.insertedSectionRanges.map { $0 }
    }
    if !changeset.reloadedSectionRanges.isEmpty {
      copy.reloadedSectionRanges = changeset.reloadedSectionRanges.map { $0 }
    }
    return copy
  }

  // MARK: Codable

  /// What goes wrong when `changeset` is encoded to JSON and decoded again, or `nil`.
  static func roundTripProblem(_ changeset: Changeset) -> String? {
    do {
      let decoded = try JSONDecoder().decode(
        Changeset.self, from: JSONEncoder().encode(changeset))
      return decoded == changeset ? nil : "the changeset decodes from its JSON as \(decoded)"
    } catch {
      return "decoding the changeset's JSON throws: \(error)"
    }
  }

  // MARK: Reading the model

  static func readCounts(_ coordinator: Coordinator) -> [Int] {
    (0..<coordinator.numberOfSections).map { coordinator.numberOfElements(inSection: $0) }
  }

  func readValues(_ coordinator: Coordinator, counts: [Int]) -> [[String]] {
    guard let elementReader else { return [] }
    return counts.enumerated().map { section, count in
      let model = coordinator.section(at: section)
      return (0..<count).map { elementReader(model, $0) }
    }
  }
}
