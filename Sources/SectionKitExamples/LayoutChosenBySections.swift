import SectionKit
import SectionKitConsole
import SectionKitLayout
import SectionKitLayoutBridge

/// A section that chooses its own layout — a list, a grid or an orthogonally scrolling strip —
/// for ``LayoutDemo/runSectionsChoose(on:pause:)`` and its tests.
public final class StyledSection: ArraySection<String>, ConsolePresentable, LayoutProvidingSection {
  /// The layouts a ``StyledSection`` can choose.
  public enum Style: String, Sendable, CaseIterable {
    /// Full-width rows.
    case list
    /// Three columns.
    case grid
    /// One row of tiles, 40% of the width each, scrolling sideways.
    case strip
  }

  /// The layout the section chooses.
  public var style: Style = .list
  /// The header.
  public var title = ""

  /// Creates a section titled `title` with `style`, holding `elements`.
  public convenience init(title: String, style: Style, _ elements: [String]) {
    self.init(elements)
    self.title = title
    self.style = style
  }

  /// The title and the style.
  public var consoleHeader: String? { "\(title) (\(style.rawValue))" }

  /// The section's layout: every style has a one-row header of ``LayoutExamples/headerKind``.
  public func layoutSection(for environment: LayoutEnvironment) -> LayoutSection {
    let header = BoundarySupplementaryItem(elementKind: LayoutExamples.headerKind)
      .height(.absolute(8))
    switch style {
    case .list:
      return LayoutSection { HGroup { Item() }.height(.absolute(24)) }
        .interGroupSpacing(4)
        .boundarySupplementaryItems { header }
    case .grid:
      return LayoutSection {
        HGroup { Item().width(.fractionalWidth(1.0 / 3)).contentInsets(value: 2) }
          .height(.absolute(32))
      }
      .boundarySupplementaryItems { header }
    case .strip:
      return LayoutSection {
        HGroup { Item().contentInsets(value: 2) }.width(.fractionalWidth(0.4))
          .height(.absolute(32))
      }
      .orthogonalScrollingBehavior(.continuous)
      .contentInsets(horizontal: 8)
      .boundarySupplementaryItems { header }
    }
  }
}

extension LayoutDemo {
  /// Plays the "sections choose their layouts" script on `console`: a list, a grid and a strip
  /// drawn together, then a batch that inserts a second strip and deletes the list — the new
  /// section brings its layout, the deleted one takes its layout away. `pause` is called after
  /// each step.
  public static func runSectionsChoose<Output: TextOutputStream>(
    on console: ConsoleAdapter<Output>, pause: () -> Void = {}
  ) {
    let root = ComposedSectionProvider()
    root.append(StyledSection(title: "Inbox", style: .list, ["Mail", "Chat", "News"]))
    root.append(StyledSection(title: "Photos", style: .grid, (1...7).map { "P\($0)" }))
    root.append(StyledSection(title: "Friends", style: .strip, (1...6).map { "F\($0)" }))
    console.layout = ConsoleLayoutRenderer(
      sectionsChoose: SectionChosenLayout(configuration: .init(interSectionSpacing: 8)),
      container: LayoutExamples.demoContainer, renderer: LayoutExamples.demoRenderer)
    let coordinator = Coordinator(sectionProvider: root)
    console.announce("Sections that choose their layouts: a list, a grid and a strip")
    coordinator.adapter = console
    pause()
    console.announce("insert a strip at 1, remove the list")
    root.performBatchUpdates {
      root.insert(StyledSection(title: "Albums", style: .strip, ["A1", "A2", "A3"]), at: 1)
      _ = root.remove(at: 0)
    }
    pause()
    coordinator.adapter = nil
    console.layout = nil
  }
}
