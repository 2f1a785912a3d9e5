import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// `SectionTree` and `SectionTreeBuilder`: a declarative description of a provider tree, rendered
/// by identity, through the coordinator and the strict `TestAdapter` (every changeset valid under
/// UIKit's rules, and its replay equal to the sections the description says).
///
/// Reproduce a random failure with `SECTIONKIT_SEED=<seed> swift test --filter
/// DeclarativeTreeTests`; run longer with `SECTIONKIT_FUZZ_ITERATIONS=<n>` (default 300).
@Suite struct DeclarativeTreeTests {
  static let iterations =
    ProcessInfo.processInfo.environment["SECTIONKIT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 300

  /// A tree under a coordinator with a strict test adapter.
  final class Fixture {
    let tree = SectionTree<Item>()
    let coordinator: Coordinator
    var failures: [TestAdapterFailure] = []
    var view: TestAdapter!

    init() {
      coordinator = Coordinator(sectionProvider: tree.provider)
      view = TestAdapter.toleratingReloadsWithMoves { [unowned self] in failures.append($0) }
      coordinator.adapter = view
    }

    /// Renders `content`, checks at most one valid changeset whose replay shows `expected`, and
    /// returns the changeset (`nil` when none was delivered).
    @discardableResult
    func render(
      expecting expected: [[String]], sourceLocation: SourceLocation = #_sourceLocation,
      @SectionTreeBuilder<Item> _ content: () -> [SectionNode<Item>]
    ) throws -> Changeset? {
      let before = view.changesets.count
      try tree.render(content)
      #expect(
        failures.isEmpty, "\(failures.map(\.kinds)) \(failures.map(\.violations).prefix(3))",
        sourceLocation: sourceLocation)
      #expect(view.mirrorValues == expected, sourceLocation: sourceLocation)
      #expect(view.changesets.count - before <= 1, sourceLocation: sourceLocation)
      return view.changesets.count > before ? view.changesets.last : nil
    }
  }

  static func items(_ ids: some Sequence<Int>, version: Int = 0) -> [Item] {
    ids.map { Item(id: $0, version: version) }
  }

  static func shown(_ ids: some Sequence<Int>, version: Int = 0) -> [String] {
    items(ids, version: version).map(\.description)
  }

  // MARK: Exact changes

  @Test func togglingAnIf_insertsOrRemovesExactlyThoseSections() throws {
    let fixture = Fixture()
    var showB = false
    @SectionTreeBuilder<Item> func describe() -> [SectionNode<Item>] {
      SectionNode(id: "a", elements: Self.items([1]))
      if showB {
        SectionNode(id: "b1", elements: Self.items([2]))
        SectionNode(id: "b2", elements: Self.items([3]))
      }
      SectionNode(id: "c", elements: Self.items([4]))
    }
    try fixture.render(expecting: [Self.shown([1]), Self.shown([4])], describe)
    showB = true
    let inserted = try fixture.render(
      expecting: [Self.shown([1]), Self.shown([2]), Self.shown([3]), Self.shown([4])], describe)
    #expect(inserted == Changeset(insertedSections: [1, 2]))
    // Nothing changed: nothing emitted.
    #expect(try fixture.render(expecting: fixture.view.mirrorValues, describe) == nil)
    showB = false
    let removed = try fixture.render(expecting: [Self.shown([1]), Self.shown([4])], describe)
    #expect(removed == Changeset(deletedSections: [1, 2]))
    #expect(fixture.view.reloadCount == 1)  // the adapter's first reload only
  }

  @Test func ifLet_withAChangingValue_insertsDiffsAndRemovesTheSection() throws {
    let fixture = Fixture()
    var detail: [Item]? = nil
    @SectionTreeBuilder<Item> func describe() -> [SectionNode<Item>] {
      SectionNode(id: "list", elements: Self.items([1, 2]))
      if let detail {
        SectionNode(id: "detail", elements: detail)
      }
    }
    try fixture.render(expecting: [Self.shown([1, 2])], describe)
    detail = Self.items([10, 11])
    let inserted = try fixture.render(
      expecting: [Self.shown([1, 2]), Self.shown([10, 11])], describe)
    #expect(inserted == Changeset(insertedSections: [1]))
    // Another value: the same section (same identity), its elements diffed.
    detail = [Item(id: 11, version: 1), Item(id: 12)]
    let diffed = try fixture.render(
      expecting: [Self.shown([1, 2]), ["11@1", "12@0"]], describe)
    #expect(
      diffed
        == Changeset(
          deletedElements: [IndexPath(item: 0, section: 1)],
          insertedElements: [IndexPath(item: 1, section: 1)],
          reloadedElements: [IndexPath(item: 1, section: 1)]))
    detail = nil
    let removed = try fixture.render(expecting: [Self.shown([1, 2])], describe)
    #expect(removed == Changeset(deletedSections: [1]))
  }

  @Test func forOverIds_withOneAdded_insertsOnlyThatSection() throws {
    let fixture = Fixture()
    var teams = [1, 2, 4]
    @SectionTreeBuilder<Item> func describe() -> [SectionNode<Item>] {
      SectionNode(id: "header", elements: Self.items([0]))
      for team in teams {
        SectionNode(id: team, elements: Self.items([team * 10]))
      }
    }
    try fixture.render(
      expecting: [[0], [10], [20], [40]].map { Self.shown($0) }, describe)
    teams = [1, 2, 3, 4]
    let added = try fixture.render(
      expecting: [[0], [10], [20], [30], [40]].map { Self.shown($0) }, describe)
    #expect(added == Changeset(insertedSections: [3]))
  }

  @Test func nestedGroupToggled_insertsAndRemovesAllItsSections() throws {
    let fixture = Fixture()
    var showPeople = true
    @SectionTreeBuilder<Item> func describe() -> [SectionNode<Item>] {
      SectionNode(id: "title", elements: Self.items([0]))
      if showPeople {
        SectionNode(group: "people") {
          SectionNode(id: "family", elements: Self.items([1, 2]))
          SectionNode(group: "friends") {
            SectionNode(id: "close", elements: Self.items([3]))
            SectionNode(id: "others", elements: Self.items([4, 5]))
          }
        }
      }
      SectionNode(id: "footer", elements: Self.items([9]))
    }
    let all = [[0], [1, 2], [3], [4, 5], [9]].map { Self.shown($0) }
    try fixture.render(expecting: all, describe)
    showPeople = false
    let removed = try fixture.render(expecting: [Self.shown([0]), Self.shown([9])], describe)
    #expect(removed == Changeset(deletedSections: [1, 2, 3]))
    showPeople = true
    let inserted = try fixture.render(expecting: all, describe)
    #expect(inserted == Changeset(insertedSections: [1, 2, 3]))
  }

  @Test func segmentedSelectionChange_replacesThePresentedSections() throws {
    let fixture = Fixture()
    var tab = "unread"
    var unread = Self.items([1, 2])
    @SectionTreeBuilder<Item> func describe() -> [SectionNode<Item>] {
      SectionNode(id: "title", elements: Self.items([0]))
      SectionNode(segmented: "inbox", selected: tab) {
        SectionNode(id: "unread", elements: unread)
        SectionNode(group: "archive") {
          SectionNode(id: "2025", elements: Self.items([3]))
          SectionNode(id: "2026", elements: Self.items([4, 5]))
        }
      }
      SectionNode(id: "footer", elements: Self.items([9]))
    }
    try fixture.render(
      expecting: [Self.shown([0]), Self.shown([1, 2]), Self.shown([9])], describe)
    tab = "archive"
    let switched = try fixture.render(
      expecting: [[0], [3], [4, 5], [9]].map { Self.shown($0) }, describe)
    #expect(switched == Changeset(deletedSections: [1], insertedSections: [1, 2]))
    // A change in an unpresented child emits nothing…
    unread = Self.items([1, 2, 7])
    #expect(
      try fixture.render(expecting: [[0], [3], [4, 5], [9]].map { Self.shown($0) }, describe)
        == nil)
    // … and shows when it is selected again.
    tab = "unread"
    let back = try fixture.render(
      expecting: [Self.shown([0]), Self.shown([1, 2, 7]), Self.shown([9])], describe)
    #expect(back == Changeset(deletedSections: [1, 2], insertedSections: [1]))
  }

  @Test func aReorderedChild_isOneSectionMove_theOthersStay() throws {
    let fixture = Fixture()
    var order = [1, 2, 3, 4]
    @SectionTreeBuilder<Item> func describe() -> [SectionNode<Item>] {
      for id in order { SectionNode(id: id, elements: Self.items([id])) }
    }
    try fixture.render(expecting: order.map { Self.shown([$0]) }, describe)
    order = [2, 3, 4, 1]
    let changeset = try fixture.render(expecting: order.map { Self.shown([$0]) }, describe)
    #expect(changeset == Changeset(movedSections: [.init(from: 0, to: 3)]))
    // A reversal keeps one section in place and moves the others.
    order = [1, 4, 3, 2]
    let reversed = try fixture.render(expecting: order.map { Self.shown([$0]) }, describe)
    #expect(reversed?.movedSections.count == 3 && reversed?.count == 3)
  }

  @Test func aChildWhoseKindChanged_isReplaced() throws {
    let fixture = Fixture()
    var grouped = false
    @SectionTreeBuilder<Item> func describe() -> [SectionNode<Item>] {
      if grouped {
        SectionNode(group: "x") { SectionNode(id: "y", elements: Self.items([1])) }
      } else {
        SectionNode(id: "x", elements: Self.items([1]))
      }
    }
    try fixture.render(expecting: [Self.shown([1])], describe)
    grouped = true
    let changeset = try fixture.render(expecting: [Self.shown([1])], describe)
    #expect(changeset == Changeset(deletedSections: [0], insertedSections: [0]))
  }

  /// An adapter that renders its tree again while it applies a changeset, once.
  final class RerenderingAdapter: ViewAdapter {
    let inner: TestAdapter
    var onApply: (() -> Void)?

    init(_ inner: TestAdapter) { self.inner = inner }

    func reloadData(from coordinator: Coordinator) { inner.reloadData(from: coordinator) }

    func apply(
      _ changeset: Changeset, from coordinator: Coordinator, updateData: @escaping () -> Void
    ) {
      inner.apply(changeset, from: coordinator, updateData: updateData)
      let action = onApply
      onApply = nil
      action?()
    }
  }

  @Test func aRenderFromTheAdapterWhileItApplies_isTheNextChangeset() throws {
    let tree = SectionTree<Item>()
    let coordinator = Coordinator(sectionProvider: tree.provider)
    let view = TestAdapter(strict: true)
    let adapter = RerenderingAdapter(view)
    coordinator.adapter = adapter
    adapter.onApply = {
      try? tree.render {
        SectionNode(id: "a", elements: Self.items([1, 2]))
        SectionNode(id: "b", elements: Self.items([3]))
      }
    }
    try tree.render { SectionNode(id: "a", elements: Self.items([1])) }
    #expect(view.mirrorValues == [Self.shown([1, 2]), Self.shown([3])])
    #expect(
      view.changesets == [
        Changeset(insertedSections: [0]),
        Changeset(insertedSections: [1], insertedElements: [IndexPath(item: 1, section: 0)]),
      ])
  }

  // MARK: Errors

  @Test func duplicateSiblings_throwNamingThePath_andApplyNothing() throws {
    let fixture = Fixture()
    try fixture.render(expecting: [Self.shown([1])]) {
      SectionNode(id: "a", elements: Self.items([1]))
    }
    #expect(
      throws: SectionTreeError.duplicateChild(
        path: ["g"], DuplicateIdentityError(id: "b", contents: .new, positions: [0, 2]))
    ) {
      try fixture.tree.render {
        SectionNode(id: "a", elements: Self.items([2]))
        SectionNode(group: "g") {
          SectionNode(id: "b", elements: Self.items([3]))
          SectionNode(id: "c", elements: Self.items([4]))
          SectionNode(id: "b", elements: Self.items([5]))
        }
      }
    }
    let error = SectionTreeError.duplicateChild(
      path: ["g"], DuplicateIdentityError(id: "b", contents: .new, positions: [0, 2]))
    #expect(
      error.description == "duplicate identity b among the children of g, at positions 0 and 2")
    #expect(fixture.view.mirrorValues == [Self.shown([1])])
    #expect(fixture.view.changesets.count == 1)  // the first render's only
    #expect(fixture.tree.provider.numberOfSections == 1)
  }

  @Test func duplicateElements_throwNamingTheSection_andApplyNothing() throws {
    let fixture = Fixture()
    try fixture.render(expecting: [Self.shown([1]), Self.shown([2])]) {
      SectionNode(id: "a", elements: Self.items([1]))
      SectionNode(id: "b", elements: Self.items([2]))
    }
    #expect(
      throws: SectionTreeError.duplicateElement(
        path: ["b"], DuplicateIdentityError(id: "7", contents: .new, positions: [0, 2]))
    ) {
      try fixture.tree.render {
        SectionNode(id: "a", elements: Self.items([1, 8]))
        SectionNode(id: "b", elements: Self.items([7, 2, 7]))
      }
    }
    #expect(fixture.view.mirrorValues == [Self.shown([1]), Self.shown([2])])
    #expect(fixture.view.changesets.count == 1)  // the first render's only
    #expect(fixture.tree.provider.sections.map(\.numberOfElements) == [1, 1])
  }

  @Test func unknownSelection_throws_andAppliesNothing() throws {
    let fixture = Fixture()
    try fixture.render(expecting: [Self.shown([1])]) {
      SectionNode(segmented: "tabs", selected: 0) {
        SectionNode(id: 0, elements: Self.items([1]))
      }
    }
    let expected = SectionTreeError.unknownSelection(path: ["tabs"], selected: "5")
    #expect(throws: expected) {
      try fixture.tree.render {
        SectionNode(segmented: "tabs", selected: 5) {
          SectionNode(id: 0, elements: Self.items([2]))
        }
      }
    }
    #expect(expected.description == "segmented group tabs selects 5, which none of its children is")
    #expect(fixture.view.changesets.count == 1)  // the first render's only
    // Without children, a segmented group presents nothing, whatever it selects.
    let removed = try fixture.render(expecting: []) {
      SectionNode(segmented: "tabs", selected: 5) {}
    }
    #expect(removed == Changeset(deletedSections: [0]))
  }

  @Test func changingTheTreesProviderOutsideRender_traps() async {
    await #expect(processExitsWith: .failure) {
      let tree = SectionTree<Int>()
      try? tree.render { SectionNode(id: 0, elements: [1]) }
      tree.provider.append(ArraySection<Int>([2]))
      try? tree.render { SectionNode(id: 0, elements: [1]) }
    }
  }

  @Test func renderingFromInsideTheIdentityClosure_traps() async {
    await #expect(processExitsWith: .failure) {
      nonisolated(unsafe) var tree: SectionTree<Int>!
      nonisolated(unsafe) var nested = true
      tree = SectionTree<Int>(
        identifiedBy: { value in
          if nested {
            nested = false
            try? tree.render { SectionNode(id: 1, elements: [value]) }
          }
          return value
        }, isUpdated: { _, _ in false })
      try? tree.render { SectionNode(id: 0, elements: [1]) }
    }
  }

  // MARK: Differential

  /// A random description: conditions, alternatives, `if let`, loops, groups and segmented
  /// groups, written through the builder; its reference is the flattened sections.
  indirect enum Spec {
    case section(id: Int, elements: [Item])
    case group(id: Int, [Spec])
    case segmented(id: Int, selected: Int, [Spec])
    case condition(Bool, [Spec])
    case alternative(Bool, [Spec], [Spec])
    case optional(Int?, [Spec])
    case loop([[Spec]])
  }

  @SectionTreeBuilder<Item>
  static func nodes(_ specs: [Spec]) -> [SectionNode<Item>] {
    for spec in specs {
      switch spec {
      case .section(let id, let elements):
        SectionNode(id: id, elements: elements)
      case .group(let id, let children):
        SectionNode(group: id) { nodes(children) }
      case .segmented(let id, let selected, let children):
        SectionNode(segmented: id, selected: selected) { nodes(children) }
      case .condition(let flag, let children):
        if flag { nodes(children) }
      case .alternative(let flag, let first, let second):
        if flag { nodes(first) } else { nodes(second) }
      case .optional(let value, let children):
        if let value { SectionNode(group: value) { nodes(children) } }
      case .loop(let iterations):
        for children in iterations { nodes(children) }
      }
    }
  }

  /// The reference: the sections the description presents, or `nil` when it is invalid
  /// (duplicate identities among siblings or elements, or a selection of no child).
  static func reference(_ specs: [Spec]) -> [[String]]? {
    /// The concrete children a list of specs expands to.
    func expand(_ specs: [Spec]) -> [Spec] {
      specs.flatMap { spec -> [Spec] in
        switch spec {
        case .section, .group, .segmented: [spec]
        case .condition(let flag, let children): flag ? expand(children) : []
        case .alternative(let flag, let first, let second): expand(flag ? first : second)
        case .optional(let value, let children):
          value.map { [.group(id: $0, children)] } ?? []
        case .loop(let iterations): iterations.flatMap(expand)
        }
      }
    }
    func id(_ spec: Spec) -> Int {
      switch spec {
      case .section(let id, _), .group(let id, _), .segmented(let id, _, _): id
      default: preconditionFailure("not expanded")
      }
    }
    func flatten(_ specs: [Spec]) -> [[String]]? {
      let children = expand(specs)
      guard Set(children.map(id)).count == children.count else { return nil }
      var result: [[String]] = []
      for child in children {
        switch child {
        case .section(_, let elements):
          guard Set(elements.map(\.id)).count == elements.count else { return nil }
          result.append(elements.map(\.description))
        case .group(_, let grandchildren):
          guard let sections = flatten(grandchildren) else { return nil }
          result += sections
        case .segmented(_, let selected, let grandchildren):
          let options = expand(grandchildren)
          guard let sections = flatten(grandchildren) else { return nil }
          _ = sections
          guard !options.isEmpty else { continue }
          guard let chosen = options.first(where: { id($0) == selected }) else { return nil }
          guard let shown = flatten([chosen]) else { return nil }
          result += shown
        default:
          preconditionFailure("not expanded")
        }
      }
      return result
    }
    return flatten(specs)
  }

  /// Random specs over a small id space, so that identities recur across renders.
  static func randomSpecs(
    depth: Int, invalid: Bool, using random: inout SeededGenerator
  ) -> [Spec] {
    var ids = Array(0..<6).shuffled(using: &random)
    func nextID() -> Int {
      invalid && Int.random(in: 0..<20, using: &random) == 0
        ? Int.random(in: 0..<6, using: &random) : (ids.popLast() ?? 100 + ids.count)
    }
    var specs: [Spec] = []
    for _ in 0..<Int.random(in: 0...4, using: &random) {
      guard !ids.isEmpty else { break }
      let kind = depth > 0 ? Int.random(in: 0..<9, using: &random) : 0
      switch kind {
      case 0, 1, 2:
        let count = Int.random(in: 0..<6, using: &random)
        var elementIDs = Array(Array(0..<8).shuffled(using: &random).prefix(count))
        if invalid && count > 1 && Bool.random(using: &random) { elementIDs[0] = elementIDs[1] }
        specs.append(
          .section(
            id: nextID(),
            elements: elementIDs.map {
              Item(id: $0, version: Int.random(in: 0..<2, using: &random))
            }))
      case 3:
        specs.append(
          .group(id: nextID(), randomSpecs(depth: depth - 1, invalid: invalid, using: &random)))
      case 4:
        let children = randomSpecs(depth: depth - 1, invalid: invalid, using: &random)
        specs.append(
          .segmented(id: nextID(), selected: Int.random(in: 0..<4, using: &random), children))
      case 5:
        specs.append(
          .condition(
            Bool.random(using: &random),
            [.section(id: nextID(), elements: items(0..<Int.random(in: 0..<3, using: &random)))]))
      case 6:
        let id = nextID()
        specs.append(
          .alternative(
            Bool.random(using: &random), [.section(id: id, elements: items([1, 2]))],
            [.group(id: id, [.section(id: 0, elements: items([1], version: 1))])]))
      case 7:
        var iterations: [[Spec]] = []
        for _ in 0..<Int.random(in: 0...3, using: &random) where !ids.isEmpty {
          iterations.append(
            Bool.random(using: &random)
              ? [.section(id: nextID(), elements: items([Int.random(in: 0..<3, using: &random)]))]
              : [
                .group(
                  id: nextID(), randomSpecs(depth: depth - 1, invalid: invalid, using: &random))
              ])
        }
        specs.append(.loop(iterations))
      default:
        let value: Int? = Bool.random(using: &random) ? nextID() : nil
        specs.append(
          .optional(value, randomSpecs(depth: depth - 1, invalid: invalid, using: &random)))
      }
    }
    return specs
  }

  /// The same description with its conditions and optionals flipped at random.
  static func toggled(_ specs: [Spec], using random: inout SeededGenerator) -> [Spec] {
    specs.map { spec in
      switch spec {
      case .section: spec
      case .group(let id, let children): .group(id: id, toggled(children, using: &random))
      case .segmented(let id, _, let children):
        .segmented(
          id: id, selected: Int.random(in: 0..<4, using: &random),
          toggled(children, using: &random))
      case .condition(_, let children):
        .condition(Bool.random(using: &random), toggled(children, using: &random))
      case .alternative(_, let first, let second):
        .alternative(Bool.random(using: &random), first, second)
      case .optional(let value, let children):
        .optional(
          Bool.random(using: &random) ? value : nil, toggled(children, using: &random))
      case .loop(let iterations): .loop(iterations.map { toggled($0, using: &random) })
      }
    }
  }

  /// Random descriptions and re-renders (new trees, toggled conditions, the same description
  /// again, invalid descriptions), each rendered through the strict adapter: at most one valid
  /// changeset per render, the replay equal to the reference, none when nothing changed, and
  /// nothing applied when the description is invalid.
  @Test func randomTrees_replayThroughTheStrictAdapter() throws {
    let seed = SeededGenerator.seed(fromEnvironment: "SECTIONKIT_SEED", default: 0x7EE)
    var random = SeededGenerator(seed: seed)
    var fixture = Fixture()
    var shown: [[String]] = []
    var last: [Spec] = []
    var (rejected, changesets) = (0, 0)
    for iteration in 0..<Self.iterations * 4 {
      if iteration % 40 == 0 {
        fixture = Fixture()
        shown = []
        last = []
      }
      let specs: [Spec]
      let repeated: Bool
      switch Int.random(in: 0..<6, using: &random) {
      case 0, 1: (specs, repeated) = (Self.toggled(last, using: &random), false)
      case 2: (specs, repeated) = (last, true)
      case 3: (specs, repeated) = (Self.randomSpecs(depth: 3, invalid: true, using: &random), false)
      default:
        (specs, repeated) = (Self.randomSpecs(depth: 3, invalid: false, using: &random), false)
      }
      let before = (fixture.view.changesets.count, fixture.failures.count)
      let expected = Self.reference(specs)
      do {
        try fixture.tree.render { Self.nodes(specs) }
        #expect(expected != nil, "rendered an invalid description")
      } catch {
        #expect(expected == nil, "\(error)")
      }
      if let expected {
        shown = expected
        last = specs
      }
      #expect(fixture.view.mirrorValues == shown)
      // One changeset at most; none when the description is invalid or the same as before.
      let delivered = fixture.view.changesets.count - before.0
      #expect(delivered <= (expected == nil || repeated ? 0 : 1))
      rejected += expected == nil ? 1 : 0
      changesets += delivered
      if fixture.failures.count > before.1 || fixture.view.mirrorValues != shown {
        Issue.record("seed \(seed) (replay with SECTIONKIT_SEED=\(seed)), iteration \(iteration)")
        return
      }
    }
    // The run exercised both paths.
    #expect(rejected > Self.iterations / 20 && changesets > Self.iterations)

  }
}
