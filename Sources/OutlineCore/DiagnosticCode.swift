/// A stable diagnostic code such as `OL401`, with readable static names.
///
/// Every code is defined once, in ``DiagnosticCatalog/entries``; the static
/// names below are looked up there, so a code cannot exist without its
/// severity, title and help.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Comparable,
  CustomStringConvertible
{
  /// The code as written in output and configuration, e.g. `OL401`.
  public let rawValue: String

  /// Wraps a raw code; use ``DiagnosticCatalog/entry(for:)`` to see whether it exists.
  public init(rawValue: String) { self.rawValue = rawValue }

  public var description: String { rawValue }

  /// The severity the catalog gives this code.
  public var defaultSeverity: Severity {
    DiagnosticCatalog.entry(for: self)?.severity ?? .error
  }

  public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  // MARK: Documents (SPEC §4)
  public static let notWellFormed = Self(rawValue: "OL100")
  public static let badRootOrVersion = Self(rawValue: "OL101")
  public static let modelUnreadable = Self(rawValue: "OL102")
  public static let modelHasErrors = Self(rawValue: "OL103")
  public static let doctypePresent = Self(rawValue: "OL104")
  public static let textInObject = Self(rawValue: "OL105")
  public static let modelOutsideProject = Self(rawValue: "OL106")
  public static let valueTooLarge = Self(rawValue: "OL107")
  public static let migrationPending = Self(rawValue: "OL108")
  public static let unknownEntity = Self(rawValue: "OL200")
  public static let abstractEntity = Self(rawValue: "OL201")
  public static let cannotContain = Self(rawValue: "OL202")
  public static let unknownAttribute = Self(rawValue: "OL203")
  public static let requiredAttributeMissing = Self(rawValue: "OL204")
  public static let transientStored = Self(rawValue: "OL205")
  public static let derivedStored = Self(rawValue: "OL206")
  public static let valueType = Self(rawValue: "OL300")
  public static let valueOutOfBounds = Self(rawValue: "OL301")
  public static let valuePattern = Self(rawValue: "OL302")
  public static let orderMissing = Self(rawValue: "OL400")
  public static let duplicateOrder = Self(rawValue: "OL401")
  public static let orderOutOfSequence = Self(rawValue: "OL402")
  public static let orderNotDocumentOrder = Self(rawValue: "OL403")
  public static let duplicateID = Self(rawValue: "OL500")
  public static let unknownID = Self(rawValue: "OL501")
  public static let wrongEntityReference = Self(rawValue: "OL502")
  public static let cardinality = Self(rawValue: "OL503")
  public static let inverseDisagrees = Self(rawValue: "OL504")
  public static let uniquenessViolation = Self(rawValue: "OL505")
  public static let idNotName = Self(rawValue: "OL510")
  public static let mergeConflict = Self(rawValue: "OL600")

  // MARK: Models (SPEC §2)
  public static let modelNotWellFormed = Self(rawValue: "OM100")
  public static let modelStructure = Self(rawValue: "OM101")
  public static let attributeType = Self(rawValue: "OM200")
  public static let duplicateEntity = Self(rawValue: "OM201")
  public static let duplicateProperty = Self(rawValue: "OM202")
  public static let missingDestination = Self(rawValue: "OM203")
  public static let badInverse = Self(rawValue: "OM204")
  public static let badParentEntity = Self(rawValue: "OM205")
  public static let minAboveMax = Self(rawValue: "OM206")
  public static let badDefault = Self(rawValue: "OM207")
  public static let lenientValue = Self(rawValue: "OM208")
  public static let badRegularExpression = Self(rawValue: "OM209")
  public static let noInverse = Self(rawValue: "OM210")
  public static let badAnnotation = Self(rawValue: "OM211")
  public static let ambiguousContainment = Self(rawValue: "OM212")
  public static let badUniquenessConstraint = Self(rawValue: "OM213")
  public static let unknownComposite = Self(rawValue: "OM214")
  public static let sharedRenamingIdentifier = Self(rawValue: "OM215")
  public static let badIndex = Self(rawValue: "OM216")
  public static let rootNameClash = Self(rawValue: "OM217")
  public static let nameNotXMLName = Self(rawValue: "OM218")
  public static let nameConvention = Self(rawValue: "OM219")
  public static let reservedName = Self(rawValue: "OM220")

  // MARK: Configuration (SPEC §8)
  public static let configuration = Self(rawValue: "OC100")
}

/// The one place that defines every diagnostic code.
public enum DiagnosticCatalog {
  /// One code's definition.
  public struct Entry: Sendable, Hashable {
    /// The code.
    public let code: DiagnosticCode
    /// The default severity.
    public let severity: Severity
    /// A short title (SARIF `shortDescription`).
    public let title: String
    /// What it means and how to fix it (SARIF `help`).
    public let help: String
  }

  /// Every code, in code order.
  public static let entries: [Entry] = [
    Entry(
      code: .notWellFormed, severity: .error, title: "XML not well-formed",
      help:
        "The file is not well-formed XML; the message is libxml2's, except where it would mislead: a document that ends while elements are still open (a forgotten end tag, a file cut short) is said to, at its end, naming the innermost open element, and an end tag that does not match names the element it should close; both with a note at that element's start tag. Nothing after the first syntax error is validated."
    ),
    Entry(
      code: .badRootOrVersion, severity: .error, title: "Root is not <outline> or version unsupported",
      help:
        "The root element must be `outline` and its optional `version` must be `1`. A `modelVersion` must name a version of the model's bundle: one it does not have is reported at its value (with the versions there are and the one the document fits), not silently replaced."
    ),
    Entry(
      code: .modelUnreadable, severity: .error, title: "Model file missing or unreadable",
      help: "The model named by `--model`, the `model` attribute or `.outline.json` could not be read."),
    Entry(
      code: .modelHasErrors, severity: .error, title: "Model has errors",
      help: "The model has errors of its own; run `outline model check` on it for the details."),
    Entry(
      code: .doctypePresent, severity: .error, title: "DOCTYPE or entity declaration present",
      help:
        "Outline files have no DTD. Declarations are never read, entities never expanded, nothing is fetched."
    ),
    Entry(
      code: .textInObject, severity: .error, title: "Text inside an object",
      help: "Objects hold attributes and child objects only; write text as an attribute value."),
    Entry(
      code: .modelOutsideProject, severity: .error, title: "Model outside the project",
      help:
        "The `model` attribute or `.outline.json` names a model outside the project (the folder of the nearest `.outline.json`, else the git root, else the document's folder), possibly through a symbolic link. It is not read. One `.outline.json` names is trouble of the run, as an unreadable one is: the command exits 2 and writes nothing. List its folder in `modelRoots` of `.outline.json`, or name it with `--model`."
    ),
    Entry(
      code: .valueTooLarge, severity: .error, title: "Value or node over the size limit",
      help:
        "An attribute value, a run of text, a comment or a processing instruction may take at most \(SizeRule.describe(SizeRule.maximumValueBytes)) as written in the file (escapes counted as written). `convert` measures a JSON string as the XML it would write. Keep large data in files of its own."
    ),
    Entry(
      code: .migrationPending, severity: .information, title: "Written for an older model version",
      help:
        "The root's `modelVersion` (or, when it records none, the version the document fits best) is older than the model's current version. `outline migrate` (or the editor's \"Migrate to\" action) moves it to the current version; see Migration.md."
    ),
    Entry(
      code: .unknownEntity, severity: .error, title: "Unknown entity",
      help: "The element name is not an entity of the model (names are case-sensitive)."),
    Entry(
      code: .abstractEntity, severity: .error, title: "Abstract entity",
      help: "Abstract entities cannot have objects; use one of their sub-entities."),
    Entry(
      code: .cannotContain, severity: .error, title: "Entity cannot be contained here",
      help: "The parent's entity has no containment relationship whose destination is this entity."),
    Entry(
      code: .unknownAttribute, severity: .error, title: "Unknown attribute",
      help:
        "Objects carry `xml:id`, the entity's attributes and its non-containment relationships; nothing else."
    ),
    Entry(
      code: .requiredAttributeMissing, severity: .error, title: "Required attribute missing",
      help: "A non-optional attribute without a default value must be written."),
    Entry(
      code: .transientStored, severity: .warning, title: "Transient attribute stored",
      help: "Core Data does not store transient attributes; the value would be lost."),
    Entry(
      code: .derivedStored, severity: .warning, title: "Derived attribute written",
      help:
        "Core Data computes a derived attribute from its derivationExpression and overwrites any value written; remove it (the editor offers a quick fix)."
    ),
    Entry(
      code: .valueType, severity: .error, title: "Value not of the attribute's type",
      help: "The value cannot be read as the attribute's type (see SPEC §3 Values)."),
    Entry(
      code: .valueOutOfBounds, severity: .error, title: "Value outside min/max",
      help: "The value (a string's length) is outside the model's minValueString/maxValueString."),
    Entry(
      code: .valuePattern, severity: .error, title: "Value does not match the regular expression",
      help: "The whole value must match the attribute's regularExpressionString."),
    Entry(
      code: .orderMissing, severity: .error, title: "Order missing",
      help:
        "Siblings are numbered 0..n-1 by their order attribute; this one has none. `outline-lint --fix` numbers it by its place among its siblings; the others keep the order their values give."
    ),
    Entry(
      code: .duplicateOrder, severity: .error, title: "Duplicate order among siblings",
      help:
        "Two siblings share an order. `outline-lint --fix` renumbers the group keeping the order the values give: of the two, the one further down the file comes second."
    ),
    Entry(
      code: .orderOutOfSequence, severity: .error, title: "Orders not exactly 0..n-1",
      help:
        "Sibling orders must be exactly 0..n-1: no gap, no negative, none too large. `outline-lint --fix` renumbers the group keeping the order the values give (a negative order first, one too large last)."
    ),
    Entry(
      code: .orderNotDocumentOrder, severity: .hint, title: "Siblings not in document order",
      help: "The orders are valid but differ from document order; editors can sort the siblings."),
    Entry(
      code: .duplicateID, severity: .error, title: "Duplicate xml:id",
      help: "An `xml:id` must be unique in the file."),
    Entry(
      code: .unknownID, severity: .error, title: "Reference to an unknown id",
      help: "A relationship names an id that no object in the file has."),
    Entry(
      code: .wrongEntityReference, severity: .error, title: "Reference to an object of the wrong entity",
      help: "The referenced object is not of the relationship's destination entity or a sub-entity of it."),
    Entry(
      code: .cardinality, severity: .error, title: "Relationship cardinality",
      help: "A to-one holds at most one id; minCount/maxCount and non-optional relationships must hold."),
    Entry(
      code: .inverseDisagrees, severity: .error, title: "Inverse relationships disagree",
      help: "Both sides of an inverse pair are written and do not name each other."),
    Entry(
      code: .uniquenessViolation, severity: .error, title: "Uniqueness constraint violated",
      help:
        "Two objects of an entity with a uniquenessConstraint have the same values for all its members, compared as Core Data stores them (typed: `01` and `1` are the same integer, `1.0` and `1.00` the same decimal, `AAAA` and `AA AA` the same bytes; a date is the Double of seconds Core Data keeps). The first object is the related location."
    ),
    Entry(
      code: .idNotName, severity: .error, title: "Id is not an XML name",
      help:
        "An `xml:id`, and every id a relationship names, must be an NCName: a letter or `_` first, then letters, digits, `_`, `-` or `.`; no spaces, no colons. Editors offer to rename the id and every reference to it when a valid name can be derived."
    ),
    Entry(
      code: .mergeConflict, severity: .error, title: "Merge conflict left unresolved",
      help:
        "`outline merge` (git's merge driver for outlines) could not combine both sides here and recorded it as a processing instruction `<?outline-conflict kind=\"...\" ...?>` just before the item: an attribute changed differently on each side (`kind=\"attribute\"`, with the base's, ours' and theirs' values; the item holds ours'), an item removed on one side and changed on the other (`removed`; the item stands changed), an item moved into two different parents (`moved` where ours put it, `place` where theirs would), one `xml:id` added on both sides for different items (`id`, before theirs' item), or one list of children reordered differently on each side (`order`, before its first child; the list stands in ours' order). Pick a side with the editor's code action, or edit the item and delete the instruction; then `git add` the file. Git.md says more."
    ),
    Entry(
      code: .modelNotWellFormed, severity: .error, title: "Model XML not well-formed",
      help: "The model file is not well-formed XML."),
    Entry(
      code: .modelStructure, severity: .error, title: "Not a Core Data model",
      help: "The root must be `model`; entities, attributes and relationships need a name."),
    Entry(
      code: .attributeType, severity: .error, title: "Unknown or Undefined attributeType",
      help: "Stored attributes need one of Core Data's types; `Undefined` is only for transient attributes."),
    Entry(
      code: .duplicateEntity, severity: .error, title: "Duplicate entity name",
      help: "Entity names must be unique in a model."),
    Entry(
      code: .duplicateProperty, severity: .error, title: "Duplicate property name",
      help: "Property names must be unique in an entity, including the ones it inherits."),
    Entry(
      code: .missingDestination, severity: .error, title: "Relationship to a missing entity",
      help: "The relationship's destinationEntity is not in the model."),
    Entry(
      code: .badInverse, severity: .error, title: "Inverse does not exist or does not point back",
      help: "The inverseName must name a relationship of the destination whose own inverse is this one."),
    Entry(
      code: .badParentEntity, severity: .error, title: "parentEntity missing or cyclic",
      help: "The parentEntity must exist and inheritance must not loop."),
    Entry(
      code: .minAboveMax, severity: .error, title: "minValueString above maxValueString",
      help: "The minimum is greater than the maximum, so no value can be valid."),
    Entry(
      code: .badDefault, severity: .error, title: "Default outside min/max or not of its type",
      help: "The defaultValueString cannot be read as the attribute's type, or breaks its own bounds."),
    Entry(
      code: .lenientValue, severity: .warning, title: "Value Xcode accepts leniently",
      help:
        "Xcode compiles this value (a Boolean default `0.0`, an integer default `NO`, a date bound in an old format), but it is not of the attribute's type."
    ),
    Entry(
      code: .badRegularExpression, severity: .error, title: "Regular expression does not compile",
      help: "The regularExpressionString is not a valid ICU regular expression."),
    Entry(
      code: .noInverse, severity: .warning, title: "Relationship without an inverse",
      help: "Xcode warns about relationships without an inverse: the object graph cannot be kept consistent."),
    Entry(
      code: .badAnnotation, severity: .error, title: "Invalid outline annotation",
      help:
        "An `outline.order`, `outline.title` or `outline.containment` userInfo entry names something that does not fit."
    ),
    Entry(
      code: .ambiguousContainment, severity: .warning, title: "Ambiguous containment",
      help:
        "Several containment relationships of an entity can hold the same child entity; mark one with the userInfo entry `outline.containment = YES` so nesting knows which."
    ),
    Entry(
      code: .badUniquenessConstraint, severity: .error,
      title: "Uniqueness constraint names no attribute or to-one",
      help:
        "A `constraint` of a uniquenessConstraint must name an attribute or a to-one relationship of the entity (its own or inherited)."
    ),
    Entry(
      code: .unknownComposite, severity: .error, title: "Composite type missing or defined twice",
      help:
        "A `Composite` attribute's `composite` must name a `composite` element of the model, and composite names must be unique."
    ),
    Entry(
      code: .sharedRenamingIdentifier, severity: .warning, title: "Renaming identifier shared",
      help:
        "Two entities of a model, or two properties of one entity, carry the same `renamingIdentifier`: a migration from an older version cannot tell which of them an older entity or property of that name became (`outline migrate` takes the first in the model). Give each its own."
    ),
    Entry(
      code: .badIndex, severity: .error, title: "Index names no attribute or to-one",
      help:
        "A fetch index element's `property`, or a compound index's `index`, must name an attribute or a to-one relationship of the entity (its own or inherited): Xcode does not compile an index on a property the entity lacks."
    ),
    Entry(
      code: .rootNameClash, severity: .warning, title: "Root entity property named like a root attribute",
      help:
        "On the `<outline>` root element, `version`, `model`, `modelVersion` and `entity` belong to the format (the format's version, the model's path, the model version, the root's entity), so an attribute or relationship of that name of the default root entity can never be written on the root object. One that is required makes every outline whose root is that entity fail (OL204 or OL503), and `outline new` cannot write one that lints clean. The entity's nested objects may still write it. Rename the property (`outline model rename`)."
    ),
    Entry(
      code: .nameNotXMLName, severity: .error, title: "Name is not an XML name",
      help:
        "An entity's name is the element name of its objects, so it must be an XML name without a colon (an NCName of XML 1.0, fifth edition): a letter or `_` first, then letters, digits, `_`, `-`, `.` and combining marks; no space, no leading digit, `-` or `.`. An attribute's or relationship's name is an XML attribute name: an NCName other than `xmlns`, or a prefixed name `prefix:local` a document writes under a declaration of its prefix (as `outline import` writes OPML's namespaced attributes). No document can write any other name, so `outline new` refuses the model, naming each. Xcode's model editor refuses such names too; rename it in the model."
    ),
    Entry(
      code: .nameConvention, severity: .warning, title: "Name breaks Core Data's naming convention",
      help:
        "Core Data names an entity like a class and a property like a property of a class: an entity's name starts with an upper-case letter, an attribute's, relationship's or fetched property's with a lower-case one, and names hold only letters, digits and `_` (a `.` would read as a key path, a `-` cannot be in generated code, a prefixed name's `:` needs a namespace declaration in every document). Documents can still write the name; Core Data's generated classes may not. Real shipped models break it (a relationship named `Box`), so it is a warning."
    ),
    Entry(
      code: .reservedName, severity: .warning,
      title: "Property named like a method of NSObject or NSManagedObject",
      help:
        "Core Data: a property name cannot be the same as any method of `NSObject` or `NSManagedObject` that takes no parameter (`description`, `hash`, `class`, `entity`, `objectID`, `deleted`, ...; the list is in Models.md). A managed object would answer the method, not the stored value. Documents can still write it; rename the property (`outline model rename`) before the model is used with Core Data."
    ),
    Entry(
      code: .configuration, severity: .error, title: "Invalid configuration",
      help: "`.outline.json` has an unknown key, an unknown rule code, a wrong type or a bad value."),
  ]

  private static let byCode: [DiagnosticCode: Entry] = Dictionary(
    uniqueKeysWithValues: entries.map { ($0.code, $0) })

  /// The entry for `code`, or nil when the code does not exist.
  public static func entry(for code: DiagnosticCode) -> Entry? { byCode[code] }
}

extension DiagnosticCatalog {
  /// `Documentation/Diagnostics.md`, generated from the catalog (`outline explain --markdown`).
  public static func markdown() -> String {
    var out = """
      # Diagnostics

      Generated from the catalog in `Sources/OutlineCore/DiagnosticCode.swift` by
      `outline explain --markdown`; a test keeps this file in step. Severities are
      defaults: `.outline.json` `rules` can change them or turn a code off.

      - `OL1xx` documents and syntax, `OL2xx` entities and attributes, `OL3xx` values,
        `OL4xx` the order invariant, `OL5xx` ids and relationships (SPEC §4),
        `OL6xx` merges (a conflict `outline merge` left);
      - `OM` model checks, reported by `outline model check` (SPEC §2);
      - `OC` configuration files (SPEC §8).

      | code | severity | title |
      | --- | --- | --- |

      """
    for entry in entries {
      out +=
        "| [\(entry.code)](#\(entry.code.rawValue.lowercased())) | \(entry.severity) | \(entry.title) |\n"
    }
    for entry in entries { out += "\n" + markdown(entry) }
    return out
  }

  /// One code's section of ``markdown()``: its heading, title, severity and help
  /// (`outline explain --markdown CODE`).
  public static func markdown(_ entry: Entry) -> String {
    "## \(entry.code)\n\n**\(entry.title)** (\(entry.severity))\n\n\(entry.help)\n"
  }
}
