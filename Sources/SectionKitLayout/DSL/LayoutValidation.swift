// The one rule for the numbers a layout is written with (see "Bad dimensions" in Docs/Layout.md):
// sizes, fractions, spacings and insets are finite and not negative, offsets are finite and group
// counts are positive. Breaking it is a programming error: the DSL's initializers and modifiers
// trap where the value is built, and the engine checks every section it lays out (for values set
// through the public properties), naming the section, the value's owner and the value.

extension Double {
  /// Whether the value is a legal length: finite and not negative.
  var isLegalLength: Bool { isFinite && self >= 0 }
}

/// Traps unless `value` is finite and not negative; the message shows `shown` (by default the
/// value itself), e.g. `Item.width: absolute(nan) must be finite and not negative`.
func checkLength(
  _ value: Double, _ owner: @autoclosure () -> String,
  shown: @autoclosure () -> String? = nil
) {
  precondition(
    value.isLegalLength, "\(owner()): \(shown() ?? "\(value)") must be finite and not negative")
}

extension LayoutDimension {
  /// The number the dimension carries (a fraction or a number of points).
  var value: Double {
    switch self {
    case .fractionalWidth(let value), .fractionalHeight(let value), .absolute(let value),
      .estimated(let value):
      return value
    }
  }

  /// The dimension, after trapping unless its value is finite and not negative.
  @discardableResult
  func checked(_ owner: @autoclosure () -> String) -> Self {
    checkLength(value, owner(), shown: "\(self)")
    return self
  }
}

extension LayoutSize {
  /// The size, after checking both dimensions.
  @discardableResult
  func checked(_ owner: @autoclosure () -> String) -> Self {
    width.checked("\(owner()).width")
    height.checked("\(owner()).height")
    return self
  }
}

extension LayoutSpacing {
  /// The spacing, after trapping unless its value is finite and not negative.
  @discardableResult
  func checked(_ owner: @autoclosure () -> String) -> Self {
    checkLength(minimum, owner(), shown: "\(self)")
    return self
  }
}

extension LayoutEdgeSpacing {
  /// The edge spacing, after checking its four edges.
  @discardableResult
  func checked(_ owner: @autoclosure () -> String) -> Self {
    leading?.checked(owner())
    top?.checked(owner())
    trailing?.checked(owner())
    bottom?.checked(owner())
    return self
  }
}

extension EdgeInsets {
  /// The insets, after trapping unless all four are finite and not negative.
  @discardableResult
  func checked(_ owner: @autoclosure () -> String) -> Self {
    precondition(
      top.isLegalLength && leading.isLegalLength && bottom.isLegalLength
        && trailing.isLegalLength,
      "\(owner()): \(self) must be finite and not negative")
    return self
  }
}

extension Point {
  /// The point, after trapping unless both coordinates are finite.
  @discardableResult
  func checkedFinite(_ owner: @autoclosure () -> String) -> Self {
    precondition(x.isFinite && y.isFinite, "\(owner()): \(self) must be finite")
    return self
  }
}

extension LayoutSection {
  /// Traps on an illegal number anywhere in the section (see the file's header).
  ///
  /// - Complexity: O(building blocks in the section), independent of the number of elements.
  func validate(index: Int) {
    // The messages are built only when a check fails: this runs for every section of a layout.
    contentInsets.checked("LayoutSection \(index).contentInsets")
    checkLength(interGroupSpacing, "LayoutSection \(index).interGroupSpacing")
    group.validate("LayoutSection \(index)")
    for item in boundarySupplementaryItems { item.validate("LayoutSection \(index)") }
    for decoration in decorationItems {
      decoration.contentInsets.checked(
        "LayoutSection \(index) \(decoration.elementKind).contentInsets")
    }
  }
}

extension BoundarySupplementaryItem {
  func validate(_ owner: @autoclosure () -> String) {
    layoutSize.checked("\(owner()) \(elementKind)")
    contentInsets.checked("\(owner()) \(elementKind).contentInsets")
    absoluteOffset.checkedFinite("\(owner()) \(elementKind).absoluteOffset")
  }
}

extension SupplementaryItem {
  func validate(_ owner: @autoclosure () -> String) {
    layoutSize.checked("\(owner()) \(elementKind)")
    contentInsets.checked("\(owner()) \(elementKind).contentInsets")
    containerAnchor.offset.point.checkedFinite("\(owner()) \(elementKind).containerAnchor")
    itemAnchor?.offset.point.checkedFinite("\(owner()) \(elementKind).itemAnchor")
  }
}

extension LayoutAnchor.Offset {
  /// The offset's point, absolute or fractional.
  var point: Point {
    switch self {
    case .absolute(let point), .fractional(let point): return point
    }
  }
}

extension LayoutNode {
  func validate(_ owner: @autoclosure () -> String) {
    switch storage {
    case .item(let item):
      item.layoutSize.checked("\(owner()) Item")
      item.contentInsets.checked("\(owner()) Item.contentInsets")
      item.edgeSpacing?.checked("\(owner()) Item.edgeSpacing")
      for supplementary in item.supplementaryItems { supplementary.validate(owner()) }
    case .group(let group):
      let name = group.name
      group.layoutSize.checked("\(owner()) \(name)")
      group.contentInsets.checked("\(owner()) \(name).contentInsets")
      group.edgeSpacing?.checked("\(owner()) \(name).edgeSpacing")
      group.interItemSpacing?.checked("\(owner()) \(name).interItemSpacing")
      if let count = group.count {
        precondition(count > 0, "\(owner()) \(name): count must be positive, got \(count)")
      }
      for supplementary in group.supplementaryItems { supplementary.validate(owner()) }
      for subitem in group.subitems { subitem.validate(owner()) }
    }
  }
}

extension GroupNode {
  /// `HGroup`, `VGroup` or `CustomGroup`, for messages.
  var name: String {
    switch kind {
    case .horizontal: return "HGroup"
    case .vertical: return "VGroup"
    case .custom: return "CustomGroup"
    }
  }
}

extension CompositionalLayout.Configuration {
  /// Traps on an illegal number in the layout-wide settings.
  func validate() {
    checkLength(interSectionSpacing, "CompositionalLayout.interSectionSpacing")
    for item in boundarySupplementaryItems { item.validate("CompositionalLayout") }
  }
}

// Decoded values come from outside: an illegal number throws instead of trapping. The encoding
// is the synthesized one (decoded through a mirror enum with the same cases).

extension LayoutDimension {
  private enum Mirror: Decodable {
    case fractionalWidth(Double)
    case fractionalHeight(Double)
    case absolute(Double)
    case estimated(Double)
  }

  /// Decodes a dimension; throws `DecodingError.dataCorrupted` for a value that is NaN,
  /// infinite or negative.
  public init(from decoder: any Decoder) throws {
    switch try Mirror(from: decoder) {
    case .fractionalWidth(let value): self = .fractionalWidth(value)
    case .fractionalHeight(let value): self = .fractionalHeight(value)
    case .absolute(let value): self = .absolute(value)
    case .estimated(let value): self = .estimated(value)
    }
    try rejectIllegalLength(value, "LayoutDimension \(self)", decoder)
  }
}

extension LayoutSpacing {
  private enum Mirror: Decodable {
    case fixed(Double)
    case flexible(Double)
  }

  /// Decodes a spacing; throws `DecodingError.dataCorrupted` for a value that is NaN, infinite
  /// or negative.
  public init(from decoder: any Decoder) throws {
    switch try Mirror(from: decoder) {
    case .fixed(let value): self = .fixed(value)
    case .flexible(let value): self = .flexible(value)
    }
    try rejectIllegalLength(minimum, "LayoutSpacing \(self)", decoder)
  }
}

extension LayoutAnchor.Offset {
  private enum Mirror: Decodable {
    case absolute(Point)
    case fractional(Point)
  }

  /// Decodes an anchor's offset; throws `DecodingError.dataCorrupted` for a coordinate that is
  /// NaN or infinite (a layout would trap on it).
  public init(from decoder: any Decoder) throws {
    switch try Mirror(from: decoder) {
    case .absolute(let point): self = .absolute(point)
    case .fractional(let point): self = .fractional(point)
    }
    guard point.x.isFinite && point.y.isFinite else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "LayoutAnchor.Offset \(self) must be finite"))
    }
  }
}

private func rejectIllegalLength(_ value: Double, _ what: String, _ decoder: any Decoder) throws {
  guard value.isLegalLength else {
    throw DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: decoder.codingPath, debugDescription: "\(what) must be finite and not negative"
      ))
  }
}
