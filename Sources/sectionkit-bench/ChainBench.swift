import SectionKit

extension Bench {
  /// Builds a chain of `depth` providers bottom-up (each new provider becomes the parent of the
  /// chain so far) over one section, reads its sections, and releases it. Returns the times of
  /// the three steps.
  static func chain(depth: Int) -> (build: Double, read: Double, release: Double) {
    var root: ComposedSectionProvider? = ComposedSectionProvider()
    var sections = 0
    let build = seconds {
      root!.append(ArraySection<Int>([1]))
      for _ in 1..<depth {
        let parent = ComposedSectionProvider()
        parent.append(root!)
        root = parent
      }
    }
    let read = seconds { sections = root!.sections.count + root!.numberOfSections }
    precondition(sections == 2)
    let release = seconds { root = nil }
    return (build, read, release)
  }
}
