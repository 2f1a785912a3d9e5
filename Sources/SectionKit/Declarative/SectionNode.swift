/// One node of a declarative section tree: a section of elements, a group of nodes, or a segmented
/// group of which one child is presented. Each node has an identity, given by you, unique among its
/// siblings.
///
/// You write nodes inside a ``SectionTreeBuilder`` closure and hand them to
/// ``SectionTree/render(_:)``, which keeps the sections and providers of nodes whose identity
/// survives a render and diffs their contents:
///
/// ```swift
/// try tree.render {
///   SectionNode(id: "title", elements: ["Contacts"])
///   if showFamily {
///     SectionNode(id: "family", elements: family)
///   }
///   SectionNode(group: "teams") {
///     for team in teams { SectionNode(id: team.name, elements: team.members) }
///   }
///   SectionNode(segmented: "inbox", selected: tab) {
///     SectionNode(id: "unread", elements: unread)
///     SectionNode(id: "archive", elements: archive)
///   }
/// }
/// ```
///
/// A node is a description, not a section: creating one costs an array of its elements or
/// children, and nothing is emitted until a render.
///
/// A section that needs a header or behaviour names its own ``ArraySection`` subclass, which the
/// tree creates, and a closure that hands it the values of each render (see
/// ``init(id:elements:as:configure:)``).
public struct SectionNode<Element> {
  /// The node's identity among its siblings.
  public let id: AnyHashable
  let content: Content

  enum Content {
    case section([Element], SectionFactory<Element>?)
    case group([SectionNode])
    case segmented(selected: AnyHashable, [SectionNode])
  }

  /// A section presenting `elements`, in order.
  ///
  /// Across renders, a section with the same identity (and the same parent) is the same section:
  /// its elements are diffed by the tree's element identity, so only the elements that changed are
  /// reported.
  public init(id: some Hashable, elements: some Sequence<Element>) {
    self.id = AnyHashable(id)
    content = .section(Array(elements), nil)
  }

  /// A section of your own type `type` presenting `elements`: a subclass of ``ArraySection``
  /// with a header, handlers (``SelectionHandler``, ``EditingHandler``, ``MoveHandler``,
  /// ``ActionHandler``, ``DisplayHandler``), a layout — whatever an ``ArraySection`` subclass
  /// can have.
  ///
  /// ```swift
  /// final class Column: ArraySection<Card>, SelectionHandler, EditingHandler, MoveHandler {
  ///   var title = ""
  ///   var onMove: (Int, Int) -> Void = { _, _ in }
  ///   func didMove(from source: Int, to destination: Int) { onMove(source, destination) }
  /// }
  ///
  /// try board.render {
  ///   for column in columns {
  ///     SectionNode(id: column.id, elements: column.cards, as: Column.self) { section in
  ///       section.title = column.title                      // the header, every render
  ///       section.onMove = { store.moveCard(in: column.id, from: $0, to: $1) }
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// The tree creates the section with `type.init()` (``ArraySection``'s required initializer;
  /// a subclass with no initializer of its own inherits it) the first time the identity appears,
  /// and keeps it while the identity stays with the same type; a node of another type replaces
  /// it. `configure` runs on the new section before it enters the tree, then at every render
  /// that keeps it, before its elements are diffed: hand it the header value and whatever its
  /// handlers call. It must not change the section's elements (that traps: the render has read
  /// them). A header value is the section's own: changing it emits nothing, so an adapter that
  /// shows headers reads it when it draws (the console list view does at every draw).
  ///
  /// - Parameters:
  ///   - id: The section's identity among its siblings.
  ///   - elements: The section's elements, in order.
  ///   - type: The section's class.
  ///   - configure: Gives the section the values of this render.
  public init<S: ArraySection<Element>>(
    id: some Hashable, elements: some Sequence<Element>, as type: S.Type,
    configure: @escaping (S) -> Void = { _ in }
  ) {
    self.id = AnyHashable(id)
    content = .section(
      Array(elements),
      SectionFactory(
        type: ObjectIdentifier(type), make: { type.init() },
        configure: { configure($0 as! S) }))
  }

  /// A group presenting the sections of its children, in order (a ``ComposedSectionProvider``).
  public init(
    group id: some Hashable, @SectionTreeBuilder<Element> _ children: () -> [SectionNode]
  ) {
    self.id = AnyHashable(id)
    content = .group(children())
  }

  /// A segmented group presenting only the child whose identity is `selected` (a
  /// ``SegmentedSectionProvider``). The other children keep their sections, unpresented.
  ///
  /// A segmented group with children must select one of them: a render otherwise throws
  /// ``SectionTreeError/unknownSelection(path:selected:)``. Without children it presents nothing.
  public init(
    segmented id: some Hashable, selected: some Hashable,
    @SectionTreeBuilder<Element> _ children: () -> [SectionNode]
  ) {
    self.id = AnyHashable(id)
    content = .segmented(selected: AnyHashable(selected), children())
  }

  /// The kind of node, for matching across renders: a node whose identity survives but whose kind
  /// changed is replaced.
  var kind: SectionNodeKind {
    switch content {
    case .section(_, let factory):
      .section(factory?.type ?? ObjectIdentifier(ArraySection<Element>.self))
    case .group: .group
    case .segmented: .segmented
    }
  }

  /// The children of a group or a segmented group; empty for a section.
  var children: [SectionNode] {
    switch content {
    case .section: []
    case .group(let children), .segmented(_, let children): children
    }
  }
}

/// What a node describes: a section (of a class), a group or a segmented group.
enum SectionNodeKind: Equatable {
  case section(ObjectIdentifier)
  case group, segmented
}

/// How a node of ``SectionNode/init(id:elements:as:configure:)`` makes and configures its
/// section.
struct SectionFactory<Element> {
  /// The section's class.
  let type: ObjectIdentifier
  /// A new, empty section of that class.
  let make: () -> ArraySection<Element>
  /// Hands a section of that class the values of a render.
  let configure: (ArraySection<Element>) -> Void
}

/// Builds the children of a declarative section tree from statements: ``SectionNode`` values,
/// arrays of them, `if`, `if let`, `if`/`else`, `switch` and `for … in`.
///
/// Children that a condition leaves out are simply absent: on the next render, sections that
/// appear are inserted, and sections that disappear are removed.
@resultBuilder
public enum SectionTreeBuilder<Element> {
  /// One node.
  public static func buildExpression(_ node: SectionNode<Element>) -> [SectionNode<Element>] {
    [node]
  }

  /// Several nodes, in order (for nodes built with `map`).
  public static func buildExpression(_ nodes: [SectionNode<Element>]) -> [SectionNode<Element>] {
    nodes
  }

  /// The statements of a block, in order.
  public static func buildBlock(_ components: [SectionNode<Element>]...) -> [SectionNode<Element>] {
    components.flatMap { $0 }
  }

  /// An `if` without `else`, or an `if let`: nothing when the condition fails.
  public static func buildOptional(_ component: [SectionNode<Element>]?) -> [SectionNode<Element>] {
    component ?? []
  }

  /// The first branch of an `if`/`else` or a `switch`.
  public static func buildEither(first component: [SectionNode<Element>]) -> [SectionNode<Element>]
  {
    component
  }

  /// The second branch of an `if`/`else` or a `switch`.
  public static func buildEither(second component: [SectionNode<Element>])
    -> [SectionNode<Element>]
  {
    component
  }

  /// A `for … in` loop: the nodes of every iteration, in order.
  public static func buildArray(_ components: [[SectionNode<Element>]]) -> [SectionNode<Element>] {
    components.flatMap { $0 }
  }

  /// An `if #available` branch.
  public static func buildLimitedAvailability(_ component: [SectionNode<Element>])
    -> [SectionNode<Element>]
  {
    component
  }
}
