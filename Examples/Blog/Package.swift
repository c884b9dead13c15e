// swift-tools-version:6.0
// An app package that uses modelgen the way users do: the schema lives in the target, and the
// ModelGenPlugin build tool plugin generates the models at build time.
import PackageDescription

let package = Package(
  name: "Blog",
  platforms: [.macOS(.v15)],
  dependencies: [
    // This repository, two directories up. An app would write
    // `.package(url: "https://…/modelgen.git", from: "0.1.0")`.
    .package(name: "modelgen", path: "../..")
  ],
  targets: [
    // The app: its schema (blog.graphql), config and code live together in Sources/BlogApp.
    .executableTarget(
      name: "BlogApp",
      dependencies: [
        .product(name: "LazyModel", package: "modelgen"),
        .product(name: "LazyModelDataStore", package: "modelgen"),
      ],
      plugins: [.plugin(name: "ModelGenPlugin", package: "modelgen")]
    )
  ]
)
