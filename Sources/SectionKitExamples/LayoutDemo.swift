import SectionKit
import SectionKitConsole
import SectionKitLayout

/// The script of `sectionkit-demo --layout`: a tree of sections drawn by a ``ConsoleAdapter`` with a
/// `CompositionalLayout` — first CompositionalLayoutDSL's README example (orthogonally scrolling
/// sections under pinned headers), then the three-column mosaic, then a ListKit-style layout —
/// and a change made to each, so the drawing follows the model.
///
/// Like ``ContactsDemo`` it is example code, in the `SectionKitExamples` target, so that the demo
/// and its golden test run the same script.
public enum LayoutDemo {
  /// Plays the script on `console`; `pause` is called after each step.
  public static func run<Output: TextOutputStream>(
    on console: ConsoleAdapter<Output>, pause: () -> Void = {}
  ) {
    let examples: [(title: String, layout: CompositionalLayout, counts: [Int])] = [
      (
        "CompositionalLayoutDSL's README example", LayoutExamples.compositionalLayoutDSLReadme(),
        LayoutExamples.readmeItemCounts
      ),
      (
        "The three-column mosaic (an HGroup with two VGroups)", LayoutExamples.threeColumnMosaic(),
        LayoutExamples.mosaicItemCounts
      ),
      ("A ListKit-style layout", LayoutExamples.listKitStyle(), LayoutExamples.listKitItemCounts),
    ]
    for example in examples {
      let root = ComposedSectionProvider()
      var sections: [ContactsDemo.TitledSection] = []
      for (index, count) in example.counts.enumerated() {
        let section = ContactsDemo.TitledSection(
          title: "S\(index)", unit: (one: "item", many: "items"),
          (0..<count).map { "\(index).\($0)" })
        sections.append(section)
        root.append(section)
      }
      console.layout = ConsoleLayoutRenderer(
        layout: example.layout, container: LayoutExamples.demoContainer,
        renderer: LayoutExamples.demoRenderer)
      let coordinator = Coordinator(sectionProvider: root)
      console.announce(example.title)
      coordinator.adapter = console
      pause()
      let first = sections[0]
      console.announce("first.append(\"\(0).\(first.count)\"); first.remove(at: 0)")
      root.performBatchUpdates {
        first.append("0.\(first.count)")
        first.remove(at: 0)
      }
      pause()
      coordinator.adapter = nil
    }
    console.layout = nil
  }
}
