// swift-tools-version:6.0
import PackageDescription

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
    .target(name: "OutlineSyntax", dependencies: ["OutlineCore", "OutlineXML"]),
    .target(name: "OutlineModel", dependencies: ["OutlineCore", "OutlineXML"]),
    .target(
      name: "OutlineValidation", dependencies: ["OutlineCore", "OutlineXML", "OutlineSyntax", "OutlineModel"]),
    .target(
      name: "OutlineEditing",
      dependencies: ["OutlineCore", "OutlineXML", "OutlineSyntax", "OutlineModel", "OutlineValidation"]),
    .target(name: "JSONRPC", dependencies: ["OutlineJSON"]),
    .target(
      name: "OutlineLSP",
      dependencies: [
        "OutlineFiles",
        "JSONRPC", "OutlineCore", "OutlineJSON", "OutlineXML", "OutlineSyntax", "OutlineModel",
        "OutlineValidation", "OutlineEditing", "OutlineConvert", "OutlineWorkspace", "OutlineMigration",
      ]),
    .target(
      name: "OutlineConvert",
      dependencies: [
        "OutlineCore", "OutlineXML", "OutlineJSON", "OutlineSyntax", "OutlineModel", "OutlineValidation",
      ]
    ),
    .target(name: "CMappedFiles"),
    .target(name: "OutlineFiles", dependencies: ["OutlineCore", "CMappedFiles"]),
    .target(
      name: "OutlineWorkspace",
      dependencies: [
        "OutlineFiles",
        "OutlineCore", "OutlineXML", "OutlineJSON", "OutlineSyntax", "OutlineModel", "OutlineValidation",
        "OutlineConvert", "OutlineMigration",
      ]),
    .target(
      name: "OutlineMigration",
      dependencies: ["OutlineCore", "OutlineXML", "OutlineModel", "OutlineValidation"]),
    .target(
      name: "OutlineMerge",
      dependencies: [
        "OutlineCore", "OutlineXML", "OutlineSyntax", "OutlineModel", "OutlineValidation", "OutlineConvert",
      ]),
    .target(
      name: "OutlineCommands",
      dependencies: [
        "OutlineFiles",
        "OutlineCore", "OutlineXML", "OutlineSyntax", "OutlineModel", "OutlineValidation", "OutlineEditing",
        "OutlineWorkspace", "OutlineJSON", "OutlineConvert", "OutlineLSP", "JSONRPC", "OutlineMigration",
        "OutlineMerge",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "outline", dependencies: ["OutlineCommands"]),
    .executableTarget(name: "outline-lint", dependencies: ["OutlineCommands"]),
    .target(
      name: "FuzzHarness",
      dependencies: [
        "OutlineFiles",
        "JSONRPC", "OutlineConvert", "OutlineCore", "OutlineEditing", "OutlineJSON", "OutlineLSP",
        "OutlineModel", "OutlineValidation", "OutlineWorkspace", "OutlineXML",
      ],
      path: "Fuzz/Harness"),
    .target(name: "TestSupport", dependencies: ["OutlineCore", "OutlineJSON"], path: "Tests/TestSupport"),
    .testTarget(name: "FuzzHarnessTests", dependencies: ["FuzzHarness"]),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "OutlineJSON"]),
    .testTarget(name: "OutlineCoreTests", dependencies: ["OutlineCore", "TestSupport"]),
    .testTarget(name: "OutlineJSONTests", dependencies: ["OutlineJSON", "OutlineCore"]),
    .testTarget(name: "OutlineXMLTests", dependencies: ["OutlineXML", "OutlineCore", "TestSupport"]),
    .testTarget(name: "OutlineSyntaxTests", dependencies: ["OutlineSyntax", "OutlineXML", "OutlineCore"]),
    .testTarget(
      name: "OutlineModelTests",
      dependencies: ["OutlineFiles", "OutlineModel", "OutlineCore", "OutlineWorkspace", "TestSupport"]),
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
      dependencies: [
        "OutlineEditing", "OutlineValidation", "OutlineSyntax", "OutlineModel", "OutlineCore", "TestSupport",
      ]),
    .testTarget(
      name: "OutlineMigrationTests",
      dependencies: ["OutlineMigration", "OutlineModel", "OutlineWorkspace", "OutlineCore", "TestSupport"]),
    .testTarget(
      name: "OutlineMergeTests",
      dependencies: [
        "OutlineMerge", "OutlineValidation", "OutlineSyntax", "OutlineModel", "OutlineXML", "OutlineCore",
        "TestSupport",
      ]),
    .testTarget(
      name: "OutlineWorkspaceTests",
      dependencies: ["OutlineWorkspace", "OutlineFiles", "OutlineCore", "TestSupport"]),
    .testTarget(name: "OutlineFilesTests", dependencies: ["OutlineFiles", "OutlineCore", "TestSupport"]),
    .testTarget(
      name: "OutlineLSPTests",
      dependencies: [
        "OutlineLSP", "JSONRPC", "OutlineJSON", "OutlineWorkspace", "OutlineCore", "OutlineMigration",
        "OutlineEditing",
        "TestSupport",
      ]),
    .testTarget(
      name: "OutlineCommandsTests",
      dependencies: [
        "OutlineCommands", "OutlineWorkspace", "OutlineConvert", "OutlineValidation", "OutlineModel",
        "OutlineJSON", "OutlineCore", "TestSupport",
        // Not imported: the binaries that the CLI tests run.
        "outline", "outline-lint",
      ]),
    .testTarget(
      name: "PropertyTests",
      dependencies: [
        "OutlineConvert", "OutlineValidation", "OutlineModel", "OutlineXML", "OutlineJSON", "OutlineCore",
        "TestSupport",
        // Not imported: the binaries that the properties run.
        "outline", "outline-lint",
      ]),
  ]
)

// Fuzz targets (Fuzz/README.md): libFuzzer entry points around FuzzHarness,
// with no main of their own (two files, none named main.swift: see
// Fuzz/FuzzOutline/Entry.swift), so they exist only when Fuzz/run builds them
// with OUTLINE_FUZZ set.
if Context.environment["OUTLINE_FUZZ"] != nil {
  for name in ["FuzzOutline", "FuzzModel", "FuzzJSON", "FuzzLSP"] {
    package.targets.append(
      .executableTarget(
        name: name, dependencies: ["FuzzHarness"], path: "Fuzz/\(name)"))
  }
}
