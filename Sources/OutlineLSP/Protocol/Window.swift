extension LSP {
  /// `MessageType` of `window/showMessage` and `window/logMessage`.
  enum MessageType: Int, Codable, Sendable {
    case error = 1, warning, info, log
  }

  /// The params of `window/showMessage` and `window/logMessage`.
  struct MessageParams: Codable, Sendable, Equatable {
    var type: MessageType
    var message: String
  }
}
