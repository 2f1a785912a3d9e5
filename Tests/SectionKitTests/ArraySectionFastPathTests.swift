import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// The mutators that make one element change do their work inline, in the client's
/// specialisation, when the change is a batch of its own; these tests pin what that path must
/// keep of the bracketed one.
@Suite struct ArraySectionFastPathTests {
  /// An element whose `deinit` appends to its section (once).
  final class Noisy {
    weak var section: ArraySection<Noisy>?
    let value: Int
    init(_ value: Int, section: ArraySection<Noisy>? = nil) {
      self.value = value
      self.section = section
    }
    deinit { section?.append(Noisy(-1)) }
  }

  /// A write outside any bracket releases the old element only once the update is reported:
  /// an old element whose `deinit` changes the section makes a batch of its own, after the
  /// update, and the adapter's mirror stays equal to the model.
  @Test func oldElementWhoseDeinitAppends_isABatchAfterTheUpdate() {
    let section = ArraySection<Noisy>()
    let root = ComposedSectionProvider()
    root.append(section)
    let coordinator = Coordinator(sectionProvider: root)
    let adapter = TestAdapter(strict: true, elementReader: nil)
    coordinator.adapter = adapter
    section.append(Noisy(1, section: section))
    adapter.removeAllHistory()

    section[0] = Noisy(2)

    #expect(section.map(\.value) == [2, -1])
    #expect(
      adapter.changesets.map(\.reloadedElements) == [[IndexPath(item: 0, section: 0)], []])
    #expect(
      adapter.changesets.map(\.insertedElements) == [[], [IndexPath(item: 1, section: 0)]])
    #expect(adapter.failures.isEmpty)
    #expect(coordinator.numberOfElements(inSection: 0) == 2)
  }

  /// The fast paths still trap on a change made while the section runs user code.
  @Test func insertFromInsideRemoveAllPredicate_trapsNamingTheMethod() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let section: ArraySection<Int> = [1, 2, 3]
      let root = ComposedSectionProvider()
      root.append(section)
      section.removeAll { _ in
        section.insert(0, at: 0)
        return false
      }
    }
    let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    #expect(
      message.contains(
        "ArraySection<Int>.removeAll(where:): the section was mutated from inside its own predicate"
      ))
  }
}
