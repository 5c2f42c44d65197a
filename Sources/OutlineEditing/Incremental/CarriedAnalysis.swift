import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation

/// A document's analysis as an edit carries it to the next text: what ``TitleEdit``,
/// ``AttributeEdit`` and ``MarkupEdit`` read of the previous version's analysis and move.
///
/// The analyses know no workspace and no protocol: the server's analysis (a `DocumentCheck`)
/// conforms, and the rules that decide which findings a document reports (its configuration's,
/// the editor's) come with each call.
public protocol CarriedAnalysis {
  /// Whether the document is the JSON form (never carried: it is analyzed afresh).
  var isJSONForm: Bool { get }
  /// Whether the validator ran over the document (a model was found and read).
  var parsed: Bool { get }
  /// The model the document was checked against.
  var model: Model? { get }
  /// The item tree, moved in place.
  var tree: ItemTree? { get set }
  /// The diagnostics, sorted by position, moved in place.
  var diagnostics: [Diagnostic] { get set }
  /// The `outline-disable` comments' scopes.
  var suppression: Suppression { get set }
  /// Whether the document writes a reference.
  var madeReferences: Bool { get }
  /// False when a sibling group may be out of order.
  var childrenInOrder: Bool { get set }
}
