/// The brackets each child of a provider has open. Usually one child at a time has one open, so a
/// small array beats a dictionary.
struct ChildBrackets {
  private var open: [(child: ObjectIdentifier, count: Int)] = []

  mutating func open(_ child: AnyObject) {
    let id = ObjectIdentifier(child)
    if let index = open.firstIndex(where: { $0.child == id }) {
      open[index].count += 1
    } else {
      open.append((id, 1))
    }
  }

  /// Closes one bracket of `child`; returns `false` when it had none open.
  mutating func close(_ child: AnyObject) -> Bool {
    let id = ObjectIdentifier(child)
    guard let index = open.firstIndex(where: { $0.child == id }) else { return false }
    if open[index].count == 1 { open.remove(at: index) } else { open[index].count -= 1 }
    return true
  }

  /// Forgets `child`'s open brackets; returns how many there were.
  mutating func removeAll(of child: AnyObject) -> Int {
    let id = ObjectIdentifier(child)
    guard let index = open.firstIndex(where: { $0.child == id }) else { return 0 }
    return open.remove(at: index).count
  }
}
