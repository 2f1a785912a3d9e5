import SectionKit
import SectionKitConsole

/// The script `sectionkit-demo` plays: a contacts tree, a ``ConsoleAdapter`` attached to it, and a
/// series of mutations, each announced before it happens, so the output shows exactly what a view
/// would be told.
///
/// ```swift
/// let console = ConsoleAdapter(options: ConsoleOptions(showsIndexPaths: true))
/// ContactsDemo.run(on: console)
/// ```
///
/// The tree, with global section indexes:
///
/// ```text
/// contacts                      ComposedSectionProvider
/// ├─ title                      SingleElementSection "Contacts"        section 0
/// ├─ people                     ComposedSectionProvider
/// │  ├─ family                  TitledSection                            section 1
/// │  └─ friends                 TitledSection                            section 2
/// └─ inbox                      SegmentedSectionProvider
///    ├─ unread (current)        TitledSection                            section 3
///    └─ archive                 TitledSection
/// ```
///
/// It is example code, in the `SectionKitExamples` target (not a product) so that
/// `sectionkit-demo` and the golden test of its output run the same script.
public enum ContactsDemo {
  /// An array of strings with a title and a footer that counts them, for the console.
  public final class TitledSection: ArraySection<String>, ConsolePresentable {
    /// The header.
    public var title = ""
    /// Whether several elements can be selected at once (``SelectionHandler``).
    public var allowsMultipleSelection = false
    /// What the footer counts, singular and plural: `1 person`, `3 people`.
    public var unit = (one: "item", many: "items")

    /// Creates a section titled `title` holding `elements`.
    public convenience init(title: String, unit: (one: String, many: String), _ elements: [String])
    {
      self.init(elements)
      self.title = title
      self.unit = unit
    }

    /// The title.
    public var consoleHeader: String? { title }
    /// `1 person`, `2 people`, or `no people`.
    public var consoleFooter: String? {
      switch count {
      case 0: "no \(unit.many)"
      case 1: "1 \(unit.one)"
      default: "\(count) \(unit.many)"
      }
    }
  }

  /// Builds the tree, attaches `console` to a coordinator, and plays the script on it.
  ///
  /// - Parameters:
  ///   - console: the adapter that shows the tree; the script also writes its announcements
  ///     through it.
  ///   - pause: called after each step (the demo's `--step` waits for Return there).
  ///   - attach: the adapter attached to the coordinator, given `console` (`--json` attaches a
  ///     publisher that forwards to it); by default, `console` itself.
  /// - Returns: the coordinator, still attached to `console`.
  @discardableResult
  public static func run<Output>(
    on console: ConsoleAdapter<Output>, pause: () -> Void = {},
    attach: (ConsoleAdapter<Output>) -> any ViewAdapter = { $0 }
  ) -> Coordinator {
    // The tree: a title, two lists of people, and an inbox with two segments.
    let title = SingleElementSection(element: "Contacts")
    let family = TitledSection(title: "Family", unit: ("person", "people"), ["Mum", "Dad", "Gran"])
    let friends = TitledSection(title: "Friends", unit: ("person", "people"), ["Ada", "Grace"])
    let people = ComposedSectionProvider()
    people.append(family)
    people.append(friends)

    let unread = TitledSection(
      title: "Inbox: unread", unit: ("message", "messages"),
      ["Ada: Lunch on Friday?", "Grace: It compiles!"])
    let archive = TitledSection(
      title: "Inbox: archive", unit: ("message", "messages"),
      ["Mum: Call me", "Dad: Photos from the weekend", "Linus: Re: [PATCH v2]"])
    let inbox = SegmentedSectionProvider()
    inbox.append(unread)
    inbox.append(archive)

    let contacts = ComposedSectionProvider()
    contacts.append(title)
    contacts.append(people)
    contacts.append(inbox)

    // Attaching the adapter is a reload.
    let coordinator = Coordinator(sectionProvider: contacts)
    console.announce("coordinator.adapter = console")
    coordinator.adapter = attach(console)
    pause()

    // One element inserted.
    console.announce(#"friends.append("Linus")"#)
    friends.append("Linus")
    pause()

    // One element deleted.
    console.announce("family.remove(at: 0)")
    family.remove(at: 0)
    pause()

    // One batch, one changeset: a section inserted before the inbox (which moves down), an
    // element inserted, two elements reloaded, and an element deleted from the inbox — deletes
    // are given where the inbox was (section 3), inserts where everything is now.
    let colleagues = TitledSection(
      title: "Colleagues", unit: ("person", "people"), ["Barbara", "Edsger"])
    console.announce(
      """
      contacts.performBatchUpdates {
        title.replace(element: "All contacts")
        people.append(colleagues)
        friends.insert("Margaret", at: 0)
        family[1] = "Granny"
        unread.remove(at: 0)
      }
      """)
    contacts.performBatchUpdates {
      title.replace(element: "All contacts")
      people.append(colleagues)
      friends.insert("Margaret", at: 0)
      family[1] = "Granny"
      unread.remove(at: 0)
    }
    pause()

    // A move.
    console.announce("friends.move(from: 0, to: 3)")
    friends.move(from: 0, to: 3)
    pause()

    // A segment switch: the unread section goes, the archive section comes.
    console.announce("inbox.currentIndex = 1")
    inbox.currentIndex = 1
    pause()

    // In log mode, end with what the view shows now (a redraw already shows it).
    if console.options.mode == .log {
      console.announce("the view now shows:")
      console.writeTree()
    }

    return coordinator
  }
}

extension ContactsDemo.TitledSection: SelectionHandler, EditingHandler, MoveHandler, ActionHandler {
  /// `uppercase` and `delete` (destructive).
  public func actions(at index: Int) -> [ElementAction] {
    [ElementAction(name: "uppercase"), ElementAction(name: "delete", isDestructive: true)]
  }

  /// Upper-cases or deletes the element.
  public func performAction(named name: String, at index: Int) {
    switch name {
    case "uppercase": self[index] = self[index].uppercased()
    case "delete": remove(at: index)
    default: break
    }
  }
}

extension ContactsDemo {
  /// The tree of the interactive demo: family (multiple selection), friends (single selection)
  /// and colleagues, with a coordinator showing it on `console`.
  public static func makeInteractive<Output>(on console: ConsoleAdapter<Output>) -> Coordinator {
    let family = TitledSection(title: "Family", unit: ("person", "people"), ["Mum", "Dad", "Gran"])
    family.allowsMultipleSelection = true
    let friends = TitledSection(title: "Friends", unit: ("person", "people"), ["Ada", "Grace"])
    let colleagues = TitledSection(
      title: "Colleagues", unit: ("person", "people"), ["Linus", "Margaret", "Barbara"])
    let contacts = ComposedSectionProvider()
    contacts.append(family)
    contacts.append(friends)
    contacts.append(colleagues)
    let coordinator = Coordinator(sectionProvider: contacts)
    coordinator.adapter = console
    return coordinator
  }
}
