/// Models with constraints and derived values that the validation tests share, in process and
/// through the binaries.
extension ModelFixtures {
  /// Accounts unique by `number`, inherited by admins, with a derived attribute and a fetched
  /// property: the semantics tests' model.
  public static let numberedAccounts = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Account">
            <attribute name="login" attributeType="String"/>
            <attribute name="number" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            <attribute name="loginLength" attributeType="Integer 64" derived="YES" derivationExpression="login.length"/>
            <fetchedProperty name="sameNumber" optional="YES">
                <fetchRequest name="fetchedPropertyFetchRequest" entity="Account" predicateString="number == $FETCH_SOURCE.number"/>
            </fetchedProperty>
            <uniquenessConstraints>
                <uniquenessConstraint>
                    <constraint value="number"/>
                </uniquenessConstraint>
            </uniquenessConstraints>
        </entity>
        <entity name="Admin" parentEntity="Account"/>
    </model>
    """

  /// Events unique by `at`, an attribute of `type` (`Date`, `Binary`, `Decimal`, ...): how Core
  /// Data stores a type decides which values are the same.
  public static func uniqueEvents(_ type: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Event">
            <attribute name="at" attributeType="\(type)"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="at"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
    </model>
    """
  }
}
