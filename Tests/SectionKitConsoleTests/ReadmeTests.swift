import SectionKit
import SectionKitConsole
import Testing

/// The README's quick start, compiled and run.
@Suite struct ReadmeTests {
  final class Output: TextOutputStream {
    var text = ""
    func write(_ string: String) { text += string }
  }

  @Test func quickStart() {
    let output = Output()
    // --- README ---
    let family: ArraySection<String> = ["Mum", "Dad"]
    let friends: ArraySection<String> = ["Ada", "Grace"]
    let contacts = ComposedSectionProvider()
    contacts.append(family)
    contacts.append(friends)

    let coordinator = Coordinator(sectionProvider: contacts)
    coordinator.adapter = ConsoleAdapter(
      output: output, options: ConsoleOptions(style: .plain, mode: .log), environment: .pipe)

    contacts.performBatchUpdates {
      friends.append("Linus")
      family.remove(at: 0)
    }
    // --- end ---
    #expect(
      output.text.contains(
        """
        changeset 1: 1 element deleted, 1 element inserted
          deleted  [0, 0] Mum
          inserted [1, 2] Linus
        """))
  }
}
