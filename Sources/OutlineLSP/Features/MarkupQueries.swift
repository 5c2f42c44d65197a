import Foundation
import OutlineEditing
import OutlineSyntax

extension Snapshot {
  /// The elements as an editor sees them while typing (``MarkupTree``):
  /// read from the text, so features built on it work on a document that
  /// does not parse. Built once per snapshot.
  var markup: MarkupTree { DerivedCaches.markup.value(for: self) { MarkupTree($0.source.bytes) } }

  /// What deleting each item removes (``DeletionImpact``), its references
  /// indexed once per snapshot; nil without a tree or a model.
  var deletionImpact: DeletionImpact? {
    DerivedCaches.deletion.value(for: self) { snapshot in
      let analysis = snapshot.analysis
      guard let tree = analysis.tree, let model = analysis.model else { return nil }
      return DeletionImpact(tree: tree, source: snapshot.source, model: model)
    }
  }
}

/// Values derived from a snapshot, kept for the last snapshots: several
/// requests about one version (a code lens resolved per item, highlights
/// as the cursor moves) then share one scan. Keyed by the snapshot's
/// `serial`, which changes with the text and with a new analysis.
final class DerivedValues<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [(serial: Int, value: Value)] = []
  private let capacity: Int

  init(capacity: Int = 4) { self.capacity = capacity }

  /// The value for `snapshot`, made by `make` the first time.
  func value(for snapshot: Snapshot, _ make: (Snapshot) -> Value) -> Value {
    let serial = snapshot.serial
    lock.lock()
    if let found = entries.first(where: { $0.serial == serial }) {
      lock.unlock()
      return found.value
    }
    lock.unlock()
    let value = make(snapshot)
    lock.lock()
    defer { lock.unlock() }
    entries.removeAll { $0.serial == serial }
    entries.append((serial, value))
    if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    return value
  }
}

/// The caches of derived values.
enum DerivedCaches {
  /// The markup tree of the last snapshot asked about (about 100 bytes an
  /// element: one tree of a million elements is kept, not one per version).
  static let markup = DerivedValues<MarkupTree>(capacity: 1)
  /// The deletion impacts of the last two snapshots whose lenses were resolved or highlights asked.
  static let deletion = DerivedValues<DeletionImpact?>(capacity: 2)
}
