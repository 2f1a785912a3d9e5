import Foundation
import SectionKit
import SectionKitConsole
import Testing

extension ConsoleAdapter where Output == String {
  /// What the adapter writes while `body` runs.
  func written(during body: () -> Void) -> String {
    let start = output.endIndex
    body()
    return String(output[start...])
  }
}

@Suite struct ConsoleAdapterLogTests {
  @Test func attaching_logsAReloadWithTheWholeTree() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    assertSnapshot(console.output, named: "log-reload")
  }

  @Test func eachChangeset_isLoggedWithIndexPathsAndTexts() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    let log = console.written {
      console.announce("insert")
      fixture.friends.append("Linus")
      console.announce("delete")
      fixture.family.remove(at: 0)
      console.announce("move")
      fixture.family.move(from: 0, to: 1)
      console.announce("reload")
      fixture.title.replace(element: "All contacts")
      console.announce("insert a section, delete one")
      fixture.root.performBatchUpdates {
        fixture.people.insert(People("Colleagues", ["Barbara"]), at: 0)
        fixture.root.remove(fixture.numbers)
      }
      console.announce("a batch of element changes")
      fixture.people.performBatchUpdates {
        fixture.friends[0] = "Ada Lovelace"
        fixture.friends.insert("Margaret", at: 0)
        fixture.family.remove(at: 0)
      }
    }
    #expect(console.changesetCount == 6)
    assertSnapshot(log, named: "log-changesets")
    assertSnapshot(console.renderedTree, named: "log-changesets-tree")
    #expect(
      console.renderedTree
        == ConsoleRenderer.render(coordinator: fixture.coordinator, options: console.options),
      "what the adapter shows after applying the changesets is what the model holds")
  }

  /// A reconfigure is logged as such and redraws its row in place, as a reload would.
  @Test func aReconfigure_isLoggedAndRedrawsTheRow() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    let log = console.written {
      fixture.people.performBatchUpdates {
        fixture.friends.insert("Margaret", at: 0)
        fixture.friends.reconfigure(at: 1, with: "Ada Lovelace")
      }
    }
    #expect(log.contains("1 element reconfigured, 1 element inserted"), "\(log)")
    #expect(log.contains("reconfigured [2, 0] Ada → Ada Lovelace"), "\(log)")
    #expect(
      console.renderedTree
        == ConsoleRenderer.render(coordinator: fixture.coordinator, options: console.options))
  }

  @Test func logsTreeAfterChanges_writesTheTreeAfterEachChangeset() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole(
      options: ConsoleOptions(showsIndexPaths: true, logsTreeAfterChanges: true))
    let log = console.written { fixture.friends.append("Linus") }
    assertSnapshot(log, named: "log-insert-with-tree")
  }

  @Test func apply_callsUpdateDataBeforeReadingTheNewState() {
    let fixture = ContactsFixture()
    let console = ConsoleAdapter(output: String())
    var updated = false
    // Driven by hand: the coordinator already answers with the new state, as after updateData.
    console.reloadData(from: fixture.coordinator)
    console.apply(Changeset(), from: fixture.coordinator) { updated = true }
    #expect(updated)
    #expect(console.output.hasSuffix("changeset 1: no changes\n"))
  }

  @Test func announce_prefixesEveryLine() {
    let console = ConsoleAdapter(output: String())
    console.announce("one\ntwo")
    #expect(console.output == "» one\n» two\n")
  }

  @Test func aChangesetThatDoesNotFit_isReported_andTheAdapterReReadsEverything() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    console.coordinator(fixture.coordinator, didSelect: [path(1, 0)])
    let log = console.written {
      // Claims an insert into Friends, but the data source did not change.
      console.apply(Changeset(insertedElements: [path(2, 0)]), from: fixture.coordinator) {}
    }
    #expect(
      log.contains(
        "! inconsistent changeset: section 2 has 3 elements after the changeset, "
          + "the data source has 2 elements; re-read everything"))
    #expect(console.selectedIndexPaths.isEmpty)
    #expect(
      console.renderedTree
        == ConsoleRenderer.render(coordinator: fixture.coordinator, options: console.options))
  }

  @Test func aChangesetWithPathsOutsideTheOldState_isReported() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    let log = console.written {
      console.apply(Changeset(deletedElements: [path(2, 5)]), from: fixture.coordinator) {}
    }
    #expect(
      log.contains(
        "! inconsistent changeset: deletedElements [2, 5]: element 5 is out of range 0..<2 of old "
          + "section 2"))
  }
}

@Suite struct ConsoleAdapterSelectionTests {
  @Test func selectedElements_areMarked_andLogged() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    let log = console.written {
      console.coordinator(fixture.coordinator, didSelect: [path(1, 1), path(2, 0)])
      console.coordinator(fixture.coordinator, didSelect: [path(1, 1)])  // already selected
      console.coordinator(fixture.coordinator, didDeselect: [path(2, 0), path(3, 1), path(8, 0)])
    }
    #expect(log == "selected [1, 1] Dad\nselected [2, 0] Ada\ndeselected [2, 0] Ada\n")
    #expect(console.selectedIndexPaths == [path(1, 1)])
    assertSnapshot(console.renderedTree, named: "selection-marker")
  }

  @Test func insertsBeforeASelectedElement_shiftIt() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    console.coordinator(fixture.coordinator, didSelect: [path(1, 1)])
    fixture.family.insert("Gramps", at: 0)
    #expect(console.selectedIndexPaths == [path(1, 2)])
    fixture.family.append("Cousin")
    #expect(console.selectedIndexPaths == [path(1, 2)])
  }

  @Test func deletesBeforeASelectedElement_shiftIt_andDeletingItDropsIt() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    console.coordinator(fixture.coordinator, didSelect: [path(1, 2), path(2, 1)])
    fixture.family.remove(at: 0)
    #expect(console.selectedIndexPaths == [path(1, 1), path(2, 1)])
    fixture.friends.remove(at: 1)
    #expect(console.selectedIndexPaths == [path(1, 1)])
  }

  @Test func aMovedSelectedElement_staysSelectedAtItsNewPlace() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    console.coordinator(fixture.coordinator, didSelect: [path(1, 0), path(1, 2)])
    fixture.family.move(from: 0, to: 2)  // Mum to the end: Dad, Gran, Mum
    #expect(console.selectedIndexPaths == [path(1, 1), path(1, 2)])
    #expect(console.renderedTree.contains(" ▸ [1, 1] Gran\n ▸ [1, 2] Mum\n"))
  }

  @Test func sectionInsertsAndDeletes_carrySelectionsToTheirNewSection() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    console.coordinator(fixture.coordinator, didSelect: [path(2, 1), path(3, 0)])
    fixture.root.insert(People("New", ["x"]), at: 0)
    #expect(console.selectedIndexPaths == [path(3, 1), path(4, 0)])
    fixture.people.remove(fixture.friends)
    #expect(console.selectedIndexPaths == [path(3, 0)])
  }

  @Test func aReloadedSelectedElement_staysSelected() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    console.coordinator(fixture.coordinator, didSelect: [path(2, 0)])
    fixture.friends[0] = "Ada Lovelace"
    #expect(console.selectedIndexPaths == [path(2, 0)])
    #expect(console.renderedTree.contains(" ▸ [2, 0] Ada Lovelace\n"))
  }

  @Test func aReload_clearsTheSelection() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole()
    console.coordinator(fixture.coordinator, didSelect: [path(2, 0)])
    fixture.coordinator.replace(sectionProvider: ComposedSectionProvider())
    #expect(console.selectedIndexPaths.isEmpty)
  }

  @Test func selectionFollowsABatch_andIsLoggedInTheTree() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole(
      options: ConsoleOptions(showsIndexPaths: true, logsTreeAfterChanges: true))
    console.coordinator(fixture.coordinator, didSelect: [path(1, 1), path(2, 1)])
    let log = console.written {
      fixture.root.performBatchUpdates {
        fixture.family.remove(at: 0)  // Dad [1, 1] → [1, 0]
        fixture.friends.insert("Linus", at: 0)  // Grace [2, 1] → [2, 2]
        fixture.root.insert(People("Top", []), at: 0)  // every section + 1
      }
    }
    #expect(console.selectedIndexPaths == [path(2, 0), path(3, 2)])
    assertSnapshot(log, named: "selection-after-batch")
  }
}

@Suite struct ConsoleAdapterRedrawTests {
  @Test func redrawMode_clearsTheScreenAndDrawsTheTree_thenWhatChanged() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole(
      options: ConsoleOptions(showsIndexPaths: true, mode: .redraw), environment: terminal())
    #expect(console.options.style == .ansi)
    #expect(console.output.hasPrefix("\u{1B}[H\u{1B}[2J"))
    let frame = console.written {
      console.announce(#"friends.append("Linus")"#)
      fixture.friends.append("Linus")
    }
    assertSnapshot(console.output, named: "redraw-ansi")
    // The announcement is written at once and again at the top of the next frame.
    #expect(frame.hasPrefix("\u{1B}[1;34m» friends.append(\"Linus\")\u{1B}[0m\n\u{1B}[H\u{1B}[2J"))
  }

  @Test func redrawModeWithNoColor_stillClearsTheScreen_butWritesNoStyles() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole(
      options: ConsoleOptions(showsIndexPaths: true), environment: terminal(["NO_COLOR": "1"]))
    fixture.family.remove(at: 2)
    console.coordinator(fixture.coordinator, didSelect: [path(2, 0)])
    #expect(console.output.components(separatedBy: "\u{1B}[H\u{1B}[2J").count == 4)
    #expect(
      !console.output.replacingOccurrences(of: "\u{1B}[H\u{1B}[2J", with: "").contains("\u{1B}"))
    assertSnapshot(console.output, named: "redraw-no-color")
  }

  @Test func logModeOnATerminal_appendsAndStyles_butNeverClears() {
    let fixture = ContactsFixture()
    let console = fixture.attachConsole(
      options: ConsoleOptions(showsIndexPaths: true, mode: .log), environment: terminal())
    fixture.family.remove(at: 2)
    #expect(!console.output.contains("\u{1B}[2J"))
    assertSnapshot(console.output, named: "log-ansi")
  }

  @Test func writeTree_appendsInLogMode_andRedrawsInRedrawMode() {
    let fixture = ContactsFixture()
    let log = fixture.attachConsole()
    let appended = log.written { log.writeTree() }
    #expect(appended == log.renderedTree)

    let other = ContactsFixture()
    let redraw = other.attachConsole(options: ConsoleOptions(style: .plain, mode: .redraw))
    let frame = redraw.written { redraw.writeTree() }
    #expect(frame == "\u{1B}[H\u{1B}[2J" + redraw.renderedTree)
  }
}
