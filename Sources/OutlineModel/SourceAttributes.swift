import OutlineCore
import OutlineXML

/// Where each XML attribute of one model element is written, by its XML name.
///
/// A model element has a handful of XML attributes, so a linear search over two
/// small arrays answers faster than a hashed dictionary and costs one allocation
/// per array instead of a table (loading a model builds one per declaration).
public struct AttributeRanges: Sendable, ExpressibleByDictionaryLiteral {
  private var names: [String] = []
  private var ranges: [TextRange] = []

  public init(dictionaryLiteral elements: (String, TextRange)...) {
    for (name, range) in elements { self[name] = range }
  }

  /// Adds `name`, which the element does not have yet (no second search).
  mutating func append(_ name: String, _ range: TextRange) {
    names.append(name)
    ranges.append(range)
  }

  /// The range of XML attribute `name`'s value, if the element has it.
  public subscript(name: String) -> TextRange? {
    get { names.firstIndex(of: name).map { ranges[$0] } }
    set {
      if let index = names.firstIndex(of: name) {
        if let newValue {
          ranges[index] = newValue
        } else {
          names.remove(at: index)
          ranges.remove(at: index)
        }
      } else if let newValue {
        names.append(name)
        ranges.append(newValue)
      }
    }
  }
}

/// The XML attributes of one start tag in a model file: names, decoded values and value ranges.
struct TagFields {
  private(set) var names: [String] = []
  private var values: [String] = []
  private(set) var ranges = AttributeRanges()

  init(_ tag: StartTag) {
    let count = tag.attributes.count
    names.reserveCapacity(count)
    values.reserveCapacity(count)
    for index in 0..<count {
      let name = XMLName.string(tag.name(of: index))
      // XML forbids a repeated attribute; the parser reports it, and the first one counts.
      guard !names.contains(name) else { continue }
      names.append(name)
      values.append(tag.value(of: index))
      ranges.append(name, tag.valueRange(of: index))
    }
  }

  /// The decoded value of XML attribute `name`.
  subscript(name: String) -> String? {
    names.firstIndex(of: name).map { values[$0] }
  }
}
