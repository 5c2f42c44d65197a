/// A count with its noun in the right number: `1 file`, `2 files`,
/// `1 child`, `3 children`. Every message that states a count says it this
/// way, so none reads "1 files".
public func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
  "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
