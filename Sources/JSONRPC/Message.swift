import OutlineJSON

/// JSON-RPC 2.0 error codes (and LSP's).
public enum ErrorCode {
  public static let parseError = -32700
  public static let invalidRequest = -32600
  public static let methodNotFound = -32601
  public static let invalidParams = -32602
  public static let internalError = -32603
  /// LSP: a request before `initialize`.
  public static let serverNotInitialized = -32002
  /// LSP: the request was cancelled.
  public static let requestCancelled = -32800
  /// LSP: the content changed under the request.
  public static let contentModified = -32801
  /// LSP: the request failed although its params were valid.
  public static let requestFailed = -32803
}

/// An error reply.
public struct ResponseError: Error, Sendable {
  public var code: Int
  public var message: String

  public init(code: Int, message: String) {
    self.code = code
    self.message = message
  }

  public static func invalidParams(_ message: String) -> ResponseError {
    ResponseError(code: ErrorCode.invalidParams, message: message)
  }
}

/// One incoming message.
public enum Message: Sendable {
  /// A request, which gets exactly one reply.
  case request(id: JSONValue, method: String, params: JSONValue)
  /// A notification.
  case notification(method: String, params: JSONValue)
  /// A reply to a request the server sent.
  case response(id: JSONValue, result: JSONValue?)
  /// A body that is not a message: answered with this error, to the request's id when it could
  /// be read (else null), or logged.
  case invalid(ResponseError, id: JSONValue = .null)

  /// Classifies a message body.
  public static func decode(_ body: [UInt8]) -> Message {
    let value: JSONValue
    do {
      value = try JSONValue.parse(body)
    } catch {
      return .invalid(
        ResponseError(
          code: ErrorCode.parseError, message: "Parse error: \(error.message) at byte \(error.offset)"))
    }
    guard value.isObject else {
      let what = value.arrayValue != nil ? "batches are not supported" : "a message is a JSON object"
      return .invalid(ResponseError(code: ErrorCode.invalidRequest, message: "Invalid request: \(what)"))
    }
    let id = value["id"]
    let params = value["params"] ?? .null
    if let method = value["method"] {
      guard let name = method.stringValue else {
        // The reply names the request when its id can be read (JSON-RPC 2.0: null only when not).
        let readable = id.flatMap { id -> JSONValue? in
          switch id {
          case .number, .string: id
          default: nil
          }
        }
        return .invalid(
          ResponseError(
            code: ErrorCode.invalidRequest, message: "Invalid request: 'method' must be a string"),
          id: readable ?? .null)
      }
      if let id {
        switch id {
        case .number, .string: return .request(id: id, method: name, params: params)
        default:
          return .invalid(
            ResponseError(
              code: ErrorCode.invalidRequest, message: "Invalid request: 'id' must be a number or a string"))
        }
      }
      return .notification(method: name, params: params)
    }
    if let id { return .response(id: id, result: value["result"]) }
    return .invalid(ResponseError(code: ErrorCode.invalidRequest, message: "Invalid request: no 'method'"))
  }
}
