import Foundation
import SectionKitLayout
import SectionKitTesting
import Testing

/// `[section, item]`.
func ip(_ section: Int, _ item: Int) -> IndexPath {
  IndexPath(indexes: [section, item])
}

func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
  Rect(x: x, y: y, width: width, height: height)
}

/// The frames of one section, in item order.
func elementFrames(_ result: LayoutResult, section: Int = 0) -> [Rect] {
  result.sections[section].elements.map(\.frame)
}

/// A layout with one section repeated for every index.
func layout(_ section: LayoutSection, configuration: CompositionalLayout.Configuration = .init())
  -> CompositionalLayout
{
  CompositionalLayout(configuration: configuration, sections: [section])
}

/// Golden files under `Golden/`, loaded through `Bundle.module`; `SECTIONKIT_RECORD=1`
/// rewrites them in the source tree instead of comparing.
enum Golden {
  static var recording: Bool { ProcessInfo.processInfo.environment["SECTIONKIT_RECORD"] == "1" }

  static func sourceURL(_ name: String, filePath: String = #filePath) -> URL {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden")
      .appendingPathComponent(name)
  }

  static func check(
    _ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    if recording {
      try actual.write(to: sourceURL(name), atomically: true, encoding: .utf8)
      return
    }
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden")
        ?? Bundle.module.url(forResource: name, withExtension: nil),
      "missing golden file \(name); run with SECTIONKIT_RECORD=1", sourceLocation: sourceLocation)
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(
      actual == expected, "golden \(name) differs; re-record with SECTIONKIT_RECORD=1",
      sourceLocation: sourceLocation)
  }
}
