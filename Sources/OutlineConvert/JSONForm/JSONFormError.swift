// The error of the JSON form reader: one problem of a JSON input (message, JSON path, byte range, catalog code
// and severity), which, thrown for a refused input, carries the others. Every reader file reports through it;
// the commands print it.

import OutlineCore

/// A problem of a JSON input read as the JSON form: what, where (a JSON
/// path such as `$.children[2].title`), the byte offset and its catalog code.
/// Thrown for a refused input, it is the first error and carries the others.
public struct JSONFormError: Error, Sendable, Equatable {
  /// What is wrong, naming the values.
  public var message: String
  /// The JSON path of the value.
  public var path: String
  /// The UTF-8 offset in the input.
  public var offset: Int
  /// Where the token it is about ends (`offset` when only a point is known).
  public var end: Int
  /// The catalog code: the validator's for what the document means, else
  /// the nearest XML one (OL100 syntax, OL203 keys, OL300 JSON types...).
  public var code: DiagnosticCode
  /// The code's severity; only errors refuse the input.
  public var severity: Severity
  /// Whether the validator found it in the XML the input stands for (what
  /// the document means: orders, ids, values), rather than the reader.
  public var fromValidator = false
  /// Whether it says the input is not the JSON form (not JSON, not shaped as the form, OL100,
  /// or a value of another JSON type than the form gives it, OL300 from the reader), rather
  /// than what a document in the form means (a name the model does not have, an order, an
  /// id, a value's meaning: what an outline has as errors).
  public var isFormProblem: Bool { !fromValidator && (code == .notWellFormed || code == .valueType) }
  /// Whether this error or one of the others is a problem of the form (``isFormProblem``): the
  /// input is then not the JSON form; else it is a document in the form that has errors.
  public var refusesTheForm: Bool { all.contains(where: \.isFormProblem) }
  /// The further errors of a refused input, in document order.
  public var others: [JSONFormError] = []

  /// A problem at `offset` (to `end`, else a point).
  public init(
    message: String, path: String, offset: Int, end: Int? = nil, code: DiagnosticCode = .notWellFormed,
    severity: Severity? = nil
  ) {
    self.message = message
    self.path = path
    self.offset = offset
    self.end = max(end ?? offset, offset)
    self.code = code
    self.severity = severity ?? code.defaultSeverity
  }

  /// Every error: this one, then the others.
  public var all: [JSONFormError] {
    var first = self
    first.others = []
    return [first] + others
  }
}
