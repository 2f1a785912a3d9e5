import Foundation
import SectionKit
import SectionKitTesting
import Testing

/// `TestAdapter` with the real `Coordinator`.
@Suite struct TestAdapterTests {
  /// A tree with two array sections, attached to a test adapter.
  final class Fixture {
    let fruit: ArraySection<String> = ["apple", "banana"]
    let veg: ArraySection<String> = ["kale"]
    let root = ComposedSectionProvider()
    let coordinator: Coordinator
    let view: TestAdapter

    init(view: TestAdapter = TestAdapter()) {
      root.append(fruit)
      root.append(veg)
      coordinator = Coordinator(sectionProvider: root)
      self.view = view
      coordinator.adapter = view
    }
  }

  /// A collector for failures, so that a test can inspect them instead of failing.
  final class FailureLog {
    var failures: [TestAdapterFailure] = []
    func adapter(strict: Bool = false) -> TestAdapter {
      TestAdapter(strict: strict, onFailure: { [self] in failures.append($0) })
    }
  }

  // MARK: Reloads

  @Test func attaching_reloadsTheMirror() {
    let fixture = Fixture()
    #expect(fixture.view.reloadCount == 1)
    #expect(fixture.view.mirrorCounts == [2, 1])
    #expect(fixture.view.mirrorValues == [["apple", "banana"], ["kale"]])
    #expect(fixture.view.changesets.isEmpty)
  }

  @Test func replacingTheProvider_reloads() {
    let fixture = Fixture()
    let other = ComposedSectionProvider()
    other.append(SingleElementSection(element: 42))
    fixture.coordinator.replace(sectionProvider: other)
    #expect(fixture.view.reloadCount == 2)
    #expect(fixture.view.reloads == [[2, 1], [1]])
    #expect(fixture.view.mirrorValues == [["42"]])
  }

  @Test func countsOnlyAdapter_mirrorsNoValues() {
    let fixture = Fixture(view: TestAdapter(elementReader: nil))
    #expect(fixture.view.mirrorCounts == [2, 1])
    #expect(fixture.view.mirrorValues.isEmpty)
  }

  // MARK: Batches through the coordinator

  @Test func appendAndRemoveInOneBatch_areValidatedAndMirrored() {
    let fixture = Fixture()
    fixture.fruit.performBatchUpdates {
      fixture.fruit.append("cherry")
      fixture.fruit.remove(at: 0)
    }
    #expect(fixture.view.failures.isEmpty)
    #expect(fixture.view.mirrorValues == [["banana", "cherry"], ["kale"]])
    fixture.view.assertLastChangeset(
      equals: Changeset(deletedElements: [path(0, 0)], insertedElements: [path(0, 1)]))
  }

  @Test func moveAndUpdate_areValidatedAndMirrored() {
    let fixture = Fixture()
    fixture.root.performBatchUpdates {
      fixture.fruit.append("cherry")
      fixture.fruit.move(from: 2, to: 0)
      fixture.veg[0] = "kohlrabi"
    }
    #expect(fixture.view.failures.isEmpty)
    #expect(fixture.view.changesets.count == 1)
    fixture.view.assertMirror(equals: [["cherry", "apple", "banana"], ["kohlrabi"]])
  }

  @Test func separateMutations_areSeparateBatches() {
    let fixture = Fixture()
    fixture.veg.append("leek")
    fixture.fruit.remove(at: 1)
    #expect(fixture.view.changesets.count == 2)
    #expect(fixture.view.failures.isEmpty)
    #expect(fixture.view.mirrorCounts == [1, 2])
  }

  @Test func sectionInsertAndRemove_areValidated() {
    let fixture = Fixture()
    fixture.root.performBatchUpdates {
      fixture.root.insert(ArraySection(["new"]), at: 0)
      _ = fixture.root.remove(at: 2)
    }
    #expect(fixture.view.failures.isEmpty)
    #expect(fixture.view.mirrorValues == [["new"], ["apple", "banana"]])
    fixture.view.assertLastChangeset(
      equals: Changeset(deletedSections: [1], insertedSections: [0]))
  }

  // MARK: Failures

  @Test func badChangeset_isReportedWithUIKitsMessage() {
    let log = FailureLog()
    let fixture = Fixture(view: log.adapter())
    let bad = Changeset(deletedElements: [path(0, 5)])
    fixture.view.apply(bad, from: fixture.coordinator) {}
    #expect(log.failures.count == 1)
    #expect(fixture.view.failures.count == 1)
    let failure = try! #require(log.failures.first)
    #expect(failure.kind == .invalidChangeset)
    #expect(failure.violations.map(\.rule) == [.deleteItemOutOfBounds])
    #expect(
      failure.description.contains(
        "attempt to delete item 5 from section 0 which only contains 2 items before the update"))
    #expect(failure.description.contains("deleted elements: [0, 5]"))
    #expect(failure.description.contains("batch events: (none)"))
    #expect(failure.location.fileID.hasSuffix("TestAdapterTests.swift"))
  }

  @Test func unreloadedContentChange_isAReplayMismatch() {
    // The reader shows a version the test controls, so the model can change behind the
    // coordinator's back.
    var version = 1
    let log = FailureLog()
    let view = TestAdapter(
      elementReader: { section, index in
        "\(describeElement(of: section, at: index)!)@\(index == 1 ? version : 1)"
      },
      onFailure: { log.failures.append($0) })
    let fixture = Fixture(view: view)
    version = 2
    view.apply(Changeset(), from: fixture.coordinator) {}
    #expect(log.failures.first?.kind == .replayMismatch)
    #expect(
      log.failures.first?.mismatch?.description
        == "replay mismatch at [0, 1]: expected banana@2, got banana@1")

    version = 3
    view.apply(Changeset(reloadedElements: [path(0, 1)]), from: fixture.coordinator) {}
    #expect(log.failures.count == 1)
  }

  @Test func strictWarnings_failOnlyInStrictMode() {
    let changes = Changeset(reloadedElements: [path(0, 0), path(0, 0)])
    let lenient = FailureLog()
    let lenientFixture = Fixture(view: lenient.adapter())
    lenientFixture.view.apply(changes, from: lenientFixture.coordinator) {}
    #expect(lenient.failures.isEmpty)

    let strict = FailureLog()
    let strictFixture = Fixture(view: strict.adapter(strict: true))
    strictFixture.view.apply(changes, from: strictFixture.coordinator) {}
    #expect(strict.failures.first?.violations.map(\.rule) == [.duplicateEntry])
  }

  @Test func dataSourceDisagreeingWithTheMirror_isReported() {
    let log = FailureLog()
    let fixture = Fixture(view: log.adapter())
    let other = ComposedSectionProvider()
    other.append(ArraySection([1, 2, 3]))
    let stranger = Coordinator(sectionProvider: other)
    fixture.view.apply(Changeset(), from: stranger) {}
    #expect(log.failures.first?.kinds.contains(.staleDataSource) == true)
  }

  @Test func defaultReporter_recordsAnIssueInTheRunningTest() {
    let fixture = Fixture()
    withKnownIssue {
      fixture.view.apply(Changeset(insertedElements: [path(0, 0)]), from: fixture.coordinator) {}
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("invalid number of items in section 0") }
    }
    #expect(fixture.view.failures.count == 1)
  }

  @Test func assertionHelpers_reportToTheRunningTest() {
    let fixture = Fixture()
    withKnownIssue {
      fixture.view.assertLastChangeset(equals: Changeset(insertedSections: [0]))
    }
    fixture.fruit.append("cherry")
    withKnownIssue {
      #expect(!fixture.view.assertLastChangeset(equals: Changeset(insertedSections: [0])))
      #expect(!fixture.view.assertMirror(equals: []))
    }
    #expect(fixture.view.assertNoFailures())
  }

  // MARK: History

  @Test func selectionsAndHistory_areRecordedAndCleared() {
    let fixture = Fixture()
    fixture.view.coordinator(fixture.coordinator, didSelect: [path(0, 1)])
    fixture.view.coordinator(fixture.coordinator, didDeselect: [path(0, 1)])
    fixture.veg.append("leek")
    #expect(fixture.view.selections == [[path(0, 1)]])
    #expect(fixture.view.deselections == [[path(0, 1)]])
    #expect(fixture.view.lastChangeset == Changeset(insertedElements: [path(1, 1)]))

    fixture.view.removeAllHistory()
    #expect(fixture.view.reloadCount == 0)
    #expect(fixture.view.changesets.isEmpty && fixture.view.lastChangeset == nil)
    #expect(fixture.view.selections.isEmpty && fixture.view.deselections.isEmpty)
    #expect(fixture.view.mirrorCounts == [2, 2])
  }
}
