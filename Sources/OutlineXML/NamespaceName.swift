import CLibXML2

/// Namespace names as libxml2's parser reads them.
public enum NamespaceName {
  /// Whether libxml2 takes `name` for a namespace name: a URI reference its `xmlParseURI`
  /// reads. A declaration whose name it does not read is an error of the document
  /// (`xmlns:p: '...' is not a valid URI`), so what writes one (the JSON form) asks first.
  public static func isURI(_ name: String) -> Bool {
    guard let uri = xmlParseURI(name) else { return false }
    xmlFreeURI(uri)
    return true
  }
}
