// swift-tools-version:6.0
import PackageDescription

/// The JSON form's writer (XML -> JSON) runs per element; release builds drop
/// its dynamic exclusivity checks (5.8% of the instructions of a 100,000-item
/// conversion). Only OutlineConvert, which no library product contains, takes
/// the flag: the parser and the validator mark their hot stored properties
/// `@exclusivity(unchecked)` instead, so the `OutlineValidation` product has no
/// unsafe flags and can be a versioned dependency.
let hotPath: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

let package = Package(
  name: "outline",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "outline", targets: ["outline"]),
    .executable(name: "outline-lint", targets: ["outline-lint"]),
    .library(name: "OutlineValidation", targets: ["OutlineValidation"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
    ),
    .target(name: "OutlineCore"),
    .target(name: "OutlineJSON", dependencies: ["OutlineCore"]),
    .target(name: "OutlineXML", dependencies: ["OutlineCore", "CLibXML2"]),
    .target(name: "OutlineModel", dependencies: ["OutlineCore", "OutlineXML"]),
    .target(
      name: "OutlineValidation", dependencies: ["OutlineCore", "OutlineXML", "OutlineModel"]),
    .target(
      name: "OutlineEditing",
      dependencies: ["OutlineCore", "OutlineXML", "OutlineModel", "OutlineValidation"]),
    .target(name: "JSONRPC", dependencies: ["OutlineJSON"]),
    .target(
      name: "OutlineLSP",
      dependencies: [
        "JSONRPC", "OutlineCore", "OutlineJSON", "OutlineXML", "OutlineModel", "OutlineValidation",
        "OutlineEditing", "OutlineConvert", "OutlineWorkspace",
      ]),
    .target(
      name: "OutlineConvert",
      dependencies: ["OutlineCore", "OutlineXML", "OutlineJSON", "OutlineModel", "OutlineValidation"],
      swiftSettings: hotPath),
    .target(
      name: "OutlineWorkspace",
      dependencies: [
        "OutlineCore", "OutlineXML", "OutlineJSON", "OutlineModel", "OutlineValidation", "OutlineConvert",
      ]),
    .target(
      name: "OutlineCommands",
      dependencies: [
        "OutlineCore", "OutlineXML", "OutlineModel", "OutlineValidation", "OutlineEditing",
        "OutlineWorkspace", "OutlineJSON", "OutlineConvert", "OutlineLSP", "JSONRPC",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "outline", dependencies: ["OutlineCommands"]),
    .executableTarget(name: "outline-lint", dependencies: ["OutlineCommands"]),
    .target(
      name: "FuzzHarness",
      dependencies: [
        "JSONRPC", "OutlineConvert", "OutlineCore", "OutlineEditing", "OutlineJSON", "OutlineLSP",
        "OutlineModel", "OutlineValidation", "OutlineWorkspace", "OutlineXML",
      ],
      path: "Fuzz/Harness"),
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "FuzzHarnessTests", dependencies: ["FuzzHarness"]),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "OutlineJSON"]),
    .testTarget(name: "OutlineCoreTests", dependencies: ["OutlineCore"]),
    .testTarget(name: "OutlineJSONTests", dependencies: ["OutlineJSON", "OutlineCore"]),
    .testTarget(name: "OutlineXMLTests", dependencies: ["OutlineXML", "OutlineCore"]),
    .testTarget(
      name: "OutlineModelTests",
      dependencies: ["OutlineModel", "OutlineCore", "OutlineWorkspace", "TestSupport"]),
    .testTarget(
      name: "OutlineValidationTests",
      dependencies: ["OutlineValidation", "OutlineModel", "OutlineXML", "OutlineCore", "TestSupport"]),
    .testTarget(
      name: "OutlineConvertTests",
      dependencies: [
        "OutlineConvert", "OutlineValidation", "OutlineModel", "OutlineXML", "OutlineJSON", "OutlineCore",
        "TestSupport",
      ]),
    .testTarget(
      name: "OutlineEditingTests",
      dependencies: ["OutlineEditing", "OutlineValidation", "OutlineModel", "OutlineCore"]),
    .testTarget(name: "OutlineWorkspaceTests", dependencies: ["OutlineWorkspace", "OutlineCore"]),
    .testTarget(
      name: "OutlineLSPTests",
      dependencies: [
        "OutlineLSP", "JSONRPC", "OutlineJSON", "OutlineWorkspace", "OutlineCore", "TestSupport",
      ]),
    .testTarget(
      name: "OutlineCommandsTests",
      dependencies: [
        "OutlineCommands", "OutlineWorkspace", "OutlineConvert", "OutlineValidation", "OutlineModel",
        "OutlineJSON", "OutlineCore", "TestSupport",
        // Not imported: the binaries that the CLI tests run.
        "outline", "outline-lint",
      ]),
  ]
)

// Fuzz targets (Fuzz/README.md): libFuzzer entry points around FuzzHarness,
// with no main of their own, so they exist only when Fuzz/run builds them
// with OUTLINE_FUZZ set.
if Context.environment["OUTLINE_FUZZ"] != nil {
  for name in ["FuzzOutline", "FuzzModel", "FuzzJSON", "FuzzLSP"] {
    package.targets.append(
      .executableTarget(
        name: name, dependencies: ["FuzzHarness"], path: "Fuzz/\(name)",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
  }
}
