import Foundation
import SectionKit
import SectionKitLayout
import Testing

// The naming example of Docs/Layout.md, compiled: a file that imports both SectionKit and
// SectionKitLayout reads naturally — `Section` is SectionKit's model protocol, `LayoutSection` the
// layout's section.

struct Photo { var name: String }

final class PhotosSection: ArraySection<Photo> {}  // SectionKit's `Section` model

struct PhotoGrid: LayoutSectionConvertible {  // SectionKitLayout's section
  var layoutSection: LayoutSection {
    LayoutSection {
      HGroup { Item().width(.fractionalWidth(1.0 / 3)) }.height(.fractionalWidth(1.0 / 3))
    }
  }
}

func layout(for sections: [any Section]) -> CompositionalLayout {  // `Section` is unambiguous
  // The layout's closure is `@Sendable`: capture what it needs, not the sections themselves.
  let isPhotos = sections.map { $0 is PhotosSection }
  return CompositionalLayout { index, _ in
    if isPhotos[index] { PhotoGrid() } else { ListSection(rowHeight: .absolute(44)) }
  }
}

@Suite struct BothModulesTests {
  @Test func aTreeOfSectionsIsLaidOutByTheLayoutOfEachSection() {
    let photos = PhotosSection([
      Photo(name: "a"), Photo(name: "b"), Photo(name: "c"), Photo(name: "d"),
    ])
    let captions: ArraySection<String> = ["one", "two"]
    let root = ComposedSectionProvider()
    root.append(photos)
    root.append(captions)
    let mapping = SectionProviderMapping(sectionProvider: root)
    let result = layout(for: mapping.sections).frames(
      itemCounts: mapping.sections.map(\.numberOfElements), container: Size(width: 300, height: 600)
    )
    // Three photos per row, 100 points square; the fourth starts the second row.
    #expect(
      result.frame(at: IndexPath(indexes: [0, 3])) == Rect(x: 0, y: 100, width: 100, height: 100))
    // The list rows span the width.
    #expect(result.frame(at: IndexPath(indexes: [1, 0]))?.size.width == 300)
  }
}
