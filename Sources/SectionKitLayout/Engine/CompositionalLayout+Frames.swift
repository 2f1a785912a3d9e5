import Foundation

extension CompositionalLayout {
  /// Computes every frame of the layout for `itemCounts` elements per section in `container`.
  ///
  /// Headers are at their natural place (pinning needs a viewport: see
  /// ``frames(in:itemCounts:container:measure:)``).
  ///
  /// ```swift
  /// let result = layout.frames(itemCounts: [4], container: Size(width: 320, height: 480))
  /// ```
  ///
  /// - Parameters:
  ///   - itemCounts: the number of elements of each section; one section per entry.
  ///   - container: the collection view's bounds size.
  ///   - measure: sizes views whose layout size has an estimated dimension; `nil` treats
  ///     estimates as final.
  /// - Returns: the frames, z-indexes, content size and orthogonal regions.
  /// - Complexity: O(*s* + *n*) for *s* sections and *n* elements (plus supplementaries); the
  ///   section provider runs once per section.
  public func frames(
    itemCounts: [Int], container: Size, measure: ((MeasurementRequest) -> Size)? = nil
  ) -> LayoutResult {
    run(itemCounts: itemCounts, container: container, viewport: nil, measure: measure)
  }

  /// Computes the frames that intersect `viewport`, with pinned headers and footers moved to
  /// the viewport's edges.
  ///
  /// Equal to the full layout filtered by `viewport` (except pinned items), without computing
  /// the elements outside it: each section's extent is computed in O(1) from one group instance.
  ///
  /// - Parameters:
  ///   - viewport: the visible rectangle in content coordinates (orthogonal strips unscrolled).
  ///   - itemCounts: the number of elements of each section.
  ///   - container: the collection view's bounds size.
  ///   - measure: sizes views whose layout size has an estimated dimension.
  /// - Complexity: O(*s* + *v*) for *s* sections and *v* visible elements, plus O(elements) of
  ///   every section with an estimated dimension when a measuring closure is given (their
  ///   extent depends on every measurement).
  public func frames(
    in viewport: Rect, itemCounts: [Int], container: Size,
    measure: ((MeasurementRequest) -> Size)? = nil
  ) -> LayoutResult {
    run(itemCounts: itemCounts, container: container, viewport: viewport, measure: measure)
  }

  /// The section for `index` in `container`, as the provider returns it.
  public func section(at index: Int, container: Size) -> LayoutSection {
    sectionProvider(
      index,
      LayoutEnvironment(containerSize: container, scrollDirection: configuration.scrollDirection))
  }

  /// The provider's section for `index`, checked (see "Bad dimensions" in Docs/Layout.md).
  func checkedSection(_ index: Int, _ environment: LayoutEnvironment) -> LayoutSection {
    let section = sectionProvider(index, environment)
    section.validate(index: index)
    return section
  }

  func run(
    itemCounts: [Int], container: Size, viewport: Rect?, measure: ((MeasurementRequest) -> Size)?
  ) -> LayoutResult {
    precondition(
      container.width.isFinite && container.height.isFinite,
      "CompositionalLayout.frames: container \(container) must be finite")
    if let viewport {
      precondition(
        !(viewport.minX.isNaN || viewport.minY.isNaN || viewport.maxX.isNaN || viewport.maxY.isNaN),
        "CompositionalLayout.frames(in:): viewport \(viewport) must not be NaN")
    }
    configuration.validate()
    // A negative container (bounds minus margins on a small screen) lays out as an empty one.
    let container = Size(width: max(0, container.width), height: max(0, container.height))
    let environment = LayoutEnvironment(
      containerSize: container, scrollDirection: configuration.scrollDirection)
    let result: LayoutResult
    switch configuration.scrollDirection {
    case .vertical:
      var pass = LayoutPass(
        container: container, configuration: configuration, measure: measure, viewport: viewport)
      result = pass.run(itemCounts: itemCounts) { checkedSection($0, environment) }
    case .horizontal:
      var transposedConfiguration = configuration
      transposedConfiguration.boundarySupplementaryItems = configuration.boundarySupplementaryItems
        .map {
          $0.transposed()
        }
      let transposedMeasure: ((MeasurementRequest) -> Size)? = measure.map { measure in
        { request in measure(request.transposed()).transposed() }
      }
      var pass = LayoutPass(
        container: container.transposed(), configuration: transposedConfiguration,
        measure: transposedMeasure,
        viewport: viewport?.transposed())
      result = pass.run(itemCounts: itemCounts) { checkedSection($0, environment).transposed() }
        .transposed()
    }
    #if SECTIONKIT_INTERNAL_CHECKS
      result.checkInvariants(itemCounts: itemCounts)
    #endif
    return result
  }
}
