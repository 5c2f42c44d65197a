import OutlineCore
import OutlineModel
import OutlineSyntax
import OutlineValidation

/// Fixtures shared by the editor feature tests: a model with enumerated
/// values, references and every delete rule, and marked texts.
enum EditorFixture {
  static let modelText = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Project">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="project" inverseEntity="Task"/>
            <relationship name="steps" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Step" inverseName="project" inverseEntity="Step"/>
        </entity>
        <entity name="Task">
            <attribute name="order" attributeType="Integer 64" defaultValueString="0"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="status" optional="YES" attributeType="String" regularExpressionString="^(low|medium|high)$"/>
            <attribute name="done" optional="YES" attributeType="Boolean"/>
            <attribute name="estimate" optional="YES" attributeType="Double"/>
            <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/>
            <relationship name="subtasks" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="parentTask" inverseEntity="Task"/>
            <relationship name="parentTask" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Task" inverseName="subtasks" inverseEntity="Task"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="tasks" inverseEntity="Note"/>
            <relationship name="owners" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="tasks" inverseEntity="Person"/>
            <relationship name="blocks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="blockedBy" inverseEntity="Task"/>
            <relationship name="blockedBy" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="blocks" inverseEntity="Task"/>
        </entity>
        <entity name="Step">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="steps" inverseEntity="Project"/>
        </entity>
        <entity name="Note">
            <attribute name="text" optional="YES" attributeType="String"/>
            <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="notes" inverseEntity="Task"/>
        </entity>
        <entity name="Person">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Task" inverseName="owners" inverseEntity="Task"/>
        </entity>
    </model>
    """

  static let model = ModelLoader.load(SourceText(modelText))

  /// A text with position markers (1️⃣ ... 9️⃣) removed, and their UTF-8 offsets.
  static func marked(_ text: String) -> (source: SourceText, offsets: [Int]) {
    let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"].map { Array($0.utf8) }
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    var offsets = [Int](repeating: -1, count: markers.count)
    var index = 0
    scan: while index < bytes.count {
      for (number, marker) in markers.enumerated() where bytes[index...].starts(with: marker) {
        offsets[number] = output.count
        index += marker.count
        continue scan
      }
      output.append(bytes[index])
      index += 1
    }
    return (SourceText(bytes: output), Array(offsets.prefix { $0 >= 0 }))
  }

  /// The text of `range`.
  static func text(_ range: TextRange, _ source: SourceText) -> String { source.string(in: range) }

  /// The validated tree of `source` under the fixture model.
  static func tree(_ source: SourceText) -> ItemTree {
    OutlineValidator.validate(source, modelProvider: fixedModel(model)).tree!
  }
}
