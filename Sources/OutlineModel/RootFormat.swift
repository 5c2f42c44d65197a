import Foundation

/// The attributes the `<outline>` root element carries for the format itself, which no
/// property of the root entity can take ([Format.md](Format.md#the-root-element)).
public enum RootFormat {
  /// The names, in the order the canonical layout writes them.
  public static let attributeNames = ["version", "model", "modelVersion", "entity"]

  /// Whether `name` is one of the root element's format attributes.
  public static func isAttribute(_ name: String) -> Bool {
    attributeNames.contains(name)
  }

  /// Whether the attribute name spelled by `bytes` is one of them, with no `String` made.
  public static func isAttribute(_ bytes: some Sequence<UInt8>) -> Bool {
    attributeNames.contains { $0.utf8.elementsEqual(bytes) }
  }

  /// What the root element's attribute `name` says instead, for messages.
  public static func meaning(of name: String) -> String {
    switch name {
    case "version": "the format's version"
    case "model": "the path of the model"
    case "modelVersion": "the model version the document is for"
    case "entity": "the root object's entity"
    default: "the format's"
    }
  }
}
