import Foundation
import SectionKit
import SectionKitConsole

/// A presentable list of names with a header and a counting footer.
final class People: ArraySection<String>, ConsolePresentable {
  var title = ""
  convenience init(_ title: String, _ names: [String]) {
    self.init(names)
    self.title = title
  }
  var consoleHeader: String? { title }
  var consoleFooter: String? { count == 1 ? "1 person" : "\(count) people" }
}

/// A presentable section that keeps every default: no header, no footer, described elements.
final class Plain: ArraySection<Int>, ConsolePresentable {}

/// A section that is neither presentable nor an `ElementSection`.
final class Opaque: Section {
  weak var updateDelegate: (any SectionUpdateDelegate)?
  let numberOfElements: Int
  init(count: Int) { numberOfElements = count }
}

/// The contacts tree used by most tests:
///
/// ```text
/// 0  title     SingleElementSection "Contacts"   (default header)
/// 1  family    People ["Mum", "Dad", "Gran"]
/// 2  friends   People ["Ada", "Grace"]
/// 3  numbers   ArraySection<Int> [7, 42]          (default header)
/// ```
struct ContactsFixture {
  let title = SingleElementSection(element: "Contacts")
  let family = People("Family", ["Mum", "Dad", "Gran"])
  let friends = People("Friends", ["Ada", "Grace"])
  let numbers: ArraySection<Int> = [7, 42]
  let people = ComposedSectionProvider()
  let root = ComposedSectionProvider()
  let coordinator: Coordinator

  init() {
    people.append(family)
    people.append(friends)
    root.append(title)
    root.append(people)
    root.append(numbers)
    coordinator = Coordinator(sectionProvider: root)
  }

  /// Attaches a console adapter writing to a string (log mode, plain unless told otherwise).
  func attachConsole(
    options: ConsoleOptions = ConsoleOptions(showsIndexPaths: true),
    environment: ConsoleEnvironment = .pipe
  ) -> ConsoleAdapter<String> {
    let console = ConsoleAdapter(output: String(), options: options, environment: environment)
    coordinator.adapter = console
    return console
  }
}

/// A terminal with these environment variables.
func terminal(_ variables: [String: String] = [:]) -> ConsoleEnvironment {
  ConsoleEnvironment(isTerminal: true, variables: variables)
}

/// `[section, item]`.
func path(_ section: Int, _ item: Int) -> IndexPath { IndexPath(item: item, section: section) }
