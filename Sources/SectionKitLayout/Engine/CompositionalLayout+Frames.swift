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
    run(
      itemCounts: itemCounts, environment: LayoutEnvironment(containerSize: container),
      viewport: nil, scroll: nil, measure: measure)
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
    run(
      itemCounts: itemCounts, environment: LayoutEnvironment(containerSize: container),
      viewport: viewport, scroll: nil, measure: measure)
  }

  /// Computes every frame of the layout in `environment` (its container size, layout direction
  /// and reference insets), for a scroll position.
  ///
  /// With `scroll`, the result is what UIKit shows at that position: orthogonal sections'
  /// elements moved by their offsets, pinned headers and footers at the edges of the visible
  /// rectangle `Rect(origin: scroll.contentOffset, size: environment.containerSize)`, and every
  /// section's ``LayoutSection/visibleItemsInvalidationHandler`` called, its changes in
  /// ``LayoutResult/visibleItems``. In a right-to-left environment every frame (and the content
  /// offset and viewport, given in the same coordinates) is mirrored across the content's width.
  ///
  /// ```swift
  /// let environment = LayoutEnvironment(containerSize: Size(width: 375, height: 812),
  ///                                     layoutDirection: .rightToLeft)
  /// let result = layout.frames(itemCounts: [10], environment: environment,
  ///                            scroll: LayoutScrollPosition(contentOffset: Point(x: 0, y: 200)))
  /// ```
  ///
  /// - Parameters:
  ///   - itemCounts: the number of elements of each section.
  ///   - environment: the container size, layout direction and reference insets; its scroll
  ///     direction is replaced by the configuration's.
  ///   - scroll: the scroll position, or `nil` for frames at rest with nothing pinned.
  ///   - measure: sizes views whose layout size has an estimated dimension.
  /// - Complexity: O(*s* + *n*), twice for a right-to-left horizontal layout (its mirror axis is
  ///   the content's width), plus the handlers' visible items.
  public func frames(
    itemCounts: [Int], environment: LayoutEnvironment, scroll: LayoutScrollPosition? = nil,
    measure: ((MeasurementRequest) -> Size)? = nil
  ) -> LayoutResult {
    run(
      itemCounts: itemCounts, environment: environment, viewport: nil, scroll: scroll,
      measure: measure)
  }

  /// The frames that intersect `viewport` in `environment`, for a scroll position (see
  /// ``frames(itemCounts:environment:scroll:measure:)``); pinned items stick to `viewport`.
  ///
  /// - Complexity: as ``frames(in:itemCounts:container:measure:)``; a right-to-left horizontal
  ///   layout is laid out in full once more to find its mirror axis.
  public func frames(
    in viewport: Rect, itemCounts: [Int], environment: LayoutEnvironment,
    scroll: LayoutScrollPosition? = nil, measure: ((MeasurementRequest) -> Size)? = nil
  ) -> LayoutResult {
    run(
      itemCounts: itemCounts, environment: environment, viewport: viewport, scroll: scroll,
      measure: measure)
  }

  /// The section for `index` in `container`, as the provider returns it.
  public func section(at index: Int, container: Size) -> LayoutSection {
    sectionProvider(
      index,
      LayoutEnvironment(containerSize: container, scrollDirection: configuration.scrollDirection))
  }

  /// The provider's section for `index`, checked (see "Bad dimensions" in Docs/Layout.md), with
  /// its reference insets (``ContentInsetsReference``) added across the scroll direction.
  func checkedSection(_ index: Int, _ environment: LayoutEnvironment) -> LayoutSection {
    var section = sectionProvider(index, environment)
    section.validate(index: index)
    let reference = section.contentInsetsReference.insets(
      in: environment, fallback: configuration.contentInsetsReference)
    if reference != .zero {
      precondition(
        reference.top.isLegalLength && reference.leading.isLegalLength
          && reference.bottom.isLegalLength && reference.trailing.isLegalLength,
        "CompositionalLayout: the environment's \(section.contentInsetsReference) insets \(reference) must be finite and not negative"
      )
      switch configuration.scrollDirection {
      case .vertical:
        section.contentInsets.leading += reference.leading
        section.contentInsets.trailing += reference.trailing
      case .horizontal:
        section.contentInsets.top += reference.top
        section.contentInsets.bottom += reference.bottom
      }
    }
    return section
  }

  func run(
    itemCounts: [Int], environment given: LayoutEnvironment, viewport: Rect?,
    scroll: LayoutScrollPosition?, measure: ((MeasurementRequest) -> Size)?
  ) -> LayoutResult {
    let container = given.containerSize
    precondition(
      container.width.isFinite && container.height.isFinite,
      "CompositionalLayout.frames: container \(container) must be finite")
    if let viewport {
      precondition(
        !(viewport.minX.isNaN || viewport.minY.isNaN || viewport.maxX.isNaN || viewport.maxY.isNaN),
        "CompositionalLayout.frames(in:): viewport \(viewport) must not be NaN")
    }
    if let scroll {
      precondition(
        scroll.contentOffset.x.isFinite && scroll.contentOffset.y.isFinite
          && scroll.orthogonalOffsets.values.allSatisfy(\.isFinite),
        "CompositionalLayout.frames: scroll position \(scroll) must be finite")
    }
    configuration.validate()
    var environment = given
    // A negative container (bounds minus margins on a small screen) lays out as an empty one.
    environment.containerSize = Size(
      width: max(0, container.width), height: max(0, container.height))
    environment.scrollDirection = configuration.scrollDirection
    var handlers: [Int: VisibleItemsInvalidationHandler] = [:]
    var result: LayoutResult
    if environment.layoutDirection == .rightToLeft {
      // Laid out left to right between mirrored inputs, then mirrored: leading is the right.
      let axis: Double
      switch configuration.scrollDirection {
      case .vertical: axis = environment.containerSize.width
      case .horizontal:
        axis =
          pass(itemCounts, environment, viewport: nil, scroll: nil, measure, &handlers)
          .contentSize.width
      }
      var mirroredScroll = scroll
      mirroredScroll?.contentOffset.x =
        axis - (scroll?.contentOffset.x ?? 0) - environment.containerSize.width
      result = pass(
        itemCounts, environment, viewport: viewport?.mirrored(across: axis),
        scroll: mirroredScroll, measure, &handlers
      ).mirrored(across: axis)
    } else {
      result = pass(itemCounts, environment, viewport: viewport, scroll: scroll, measure, &handlers)
    }
    if let scroll, !handlers.isEmpty {
      result.applyVisibleItemsHandlers(handlers, scroll: scroll, environment: environment)
    }
    #if SECTIONKIT_INTERNAL_CHECKS
      result.checkInvariants(itemCounts: itemCounts)
    #endif
    return result
  }

  /// One left-to-right layout pass; records the sections' visible-items handlers.
  private func pass(
    _ itemCounts: [Int], _ environment: LayoutEnvironment, viewport: Rect?,
    scroll: LayoutScrollPosition?, _ measure: ((MeasurementRequest) -> Size)?,
    _ handlers: inout [Int: VisibleItemsInvalidationHandler]
  ) -> LayoutResult {
    let container = environment.containerSize
    func provide(_ index: Int) -> LayoutSection {
      let section = checkedSection(index, environment)
      if let handler = section.visibleItemsInvalidationHandler { handlers[index] = handler }
      return section
    }
    switch configuration.scrollDirection {
    case .vertical:
      var pass = LayoutPass(
        container: container, configuration: configuration, measure: measure, viewport: viewport,
        scroll: scroll)
      return pass.run(itemCounts: itemCounts, section: provide)
    case .horizontal:
      var transposedConfiguration = configuration
      transposedConfiguration.boundarySupplementaryItems = configuration.boundarySupplementaryItems
        .map { $0.transposed() }
      let transposedMeasure: ((MeasurementRequest) -> Size)? = measure.map { measure in
        { request in measure(request.transposed()).transposed() }
      }
      var transposedScroll = scroll
      transposedScroll?.contentOffset = scroll?.contentOffset.transposed() ?? .zero
      var pass = LayoutPass(
        container: container.transposed(), configuration: transposedConfiguration,
        measure: transposedMeasure, viewport: viewport?.transposed(), scroll: transposedScroll)
      return pass.run(itemCounts: itemCounts) { provide($0).transposed() }.transposed()
    }
  }
}
