// The JSON form writer's public face: the JSON form of a valid document, streamed while it is read when its
// children are in order, or written from its tree otherwise, and the writer that runs alongside the validator.
// The per-object work is `ObjectHead` (JSONFormObjectHead.swift); the three writers that drive it are in
// JSONFormEventWriters.swift.

import OutlineCore
import OutlineJSON
import OutlineModel
import OutlineSyntax
import OutlineValidation
import OutlineXML

/// Writes the JSON form of SPEC §5 from a valid document.
///
/// Layout: one object a line, its containment arrays opened at the end of
/// its line and closed on a line of their own, so output grows linearly with
/// depth and diffs stay small:
///
///     {"@outline":1,"@entity":"Item","children":[
///     {"@entity":"Item","title":"Milk","order":0}
///     ]}
///
/// Keys: `@outline` and `@model` on the root, `@entity` always, `@id`, then
/// attributes and references in model order, then containment arrays in the
/// order they first appear; objects that stand free under the root go in
/// `@objects`. Children appear in order order.
public enum JSONFormWriter {
  /// The JSON form of `source`, which must have validated without errors
  /// against `model`. Streams when `childrenInOrder` (memory bounded by
  /// depth), else walks `tree` with each sibling group sorted by order.
  public static func write(
    _ source: SourceText, model: Model, rootEntity: Int?, childrenInOrder: Bool, tree: () -> ItemTree,
    output: (inout [UInt8]) -> Void
  ) {
    if childrenInOrder {
      writeStreaming(
        model: model, rootEntity: rootEntity,
        feed: { parser in source.bytes.withUnsafeBufferPointer { parser.feed($0) } }, output: output)
    } else {
      writeTree(source, tree: tree(), model: model, rootEntity: rootEntity, output: output)
    }
  }

  /// Writes the JSON form as `feed` pushes the document's bytes into the
  /// parser: memory holds only the open path. The document's children must be
  /// in order order (``OutlineValidator/childrenInOrder``).
  public static func writeStreaming(
    model: Model, rootEntity: Int?, feed: (XMLEventParser) -> Void, output: (inout [UInt8]) -> Void
  ) {
    withoutActuallyEscaping(output) { output in
      let writer = StreamingJSONWriter(
        head: ObjectHead(model: model, rootEntity: rootEntity), output: StreamingJSONWriter.copying(output))
      let parser = XMLEventParser(handler: writer)
      feed(parser)
      parser.finish()
      writer.flush(final: true)
    }
  }

  /// A handler that writes the JSON form in the same parse as `validator`
  /// validates (it must receive each event after the validator): the object
  /// head is made when the validator has chosen the model at the root, and
  /// writing stops if the children turn out not to be in order order. The
  /// output is only good when, at the end, the validator found no error and
  /// ``OutlineValidator/childrenInOrder`` holds; call ``AlongsideWriter/finish()``.
  public static func alongside(_ validator: OutlineValidator, output: @escaping (inout [UInt8]) -> Void)
    -> AlongsideWriter
  {
    AlongsideWriter(validator: validator, output: StreamingJSONWriter.copying(output))
  }

  /// ``alongside(_:output:)`` handing `writing` the writer's own buffer, half a megabyte at a
  /// time (valid only during the call): no copy of the output on its way out.
  /// `rebaseModel` rewrites the root's model reference (``ObjectHead/rebaseModel``).
  public static func alongside(
    _ validator: OutlineValidator, rebaseModel: (@Sendable (String) -> String)? = nil,
    writing: @escaping (ByteView) -> Void
  ) -> AlongsideWriter {
    let writer = AlongsideWriter(validator: validator, output: { writing(ByteView($0)) })
    writer.rebaseModel = rebaseModel
    return writer
  }

  /// Writes the JSON form from the item tree, each sibling group sorted by order.
  public static func writeTree(
    _ source: SourceText, tree: ItemTree, model: Model, rootEntity: Int?,
    rebaseModel: (@Sendable (String) -> String)? = nil, output: (inout [UInt8]) -> Void
  ) {
    var head = ObjectHead(model: model, rootEntity: rootEntity)
    head.rebaseModel = rebaseModel
    TreeJSONWriter(head: head, source: source, tree: tree, model: model).write(output)
  }
}
