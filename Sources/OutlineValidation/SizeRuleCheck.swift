import OutlineCore
import OutlineXML

/// The size rule (``SizeRule``, OL107): no attribute value, text run,
/// comment or processing instruction over ``SizeRule/maximumValueBytes``
/// bytes as written. Checked on every start tag the validator sees, whether
/// the XML parser or the JSON form's reader wrote it, so `convert` refuses
/// what `lint` would.
extension OutlineValidator {
  /// Reports each attribute value of `tag` over the limit, at the value.
  func checkValueSizes(_ tag: StartTag) {
    // No value is longer than the tag that holds it.
    guard SizeRule.exceeds(tag.unsafeBytes.count) else { return }
    for index in 0..<tag.unsafeAttributes.count {
      let range = tag.valueRange(of: index)
      guard SizeRule.exceeds(range.end - range.start) else { continue }
      let name = Excerpt.quoted(XMLName.string(tag.unsafeName(of: index)))
      report(
        .valueTooLarge, SizeRule.message("The value of \(name)", byteCount: range.end - range.start),
        at: range)
    }
  }

  /// Reports a text run, comment or instruction (`what`) over the limit, at its range.
  func checkNodeSize(_ what: String, _ range: TextRange) {
    guard SizeRule.exceeds(range.end - range.start) else { return }
    report(.valueTooLarge, SizeRule.message(what, byteCount: range.end - range.start), at: range)
  }
}
