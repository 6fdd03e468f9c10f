import Foundation
import PackagePlugin

/// Compiles the package's `sql/NNNN_*.sql` migrations into the store target and `console/` (the admin console's HTML,
/// CSS and modules) into the HTTP target, so `stickerd` carries them wherever it runs. `sql/current/schema.sql` (the
/// schema the migrations make, for readers) is not a migration and is not embedded.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let tool = try context.tool(named: "EmbedFilesTool").url
        let migrations = try files(in: context.package.directoryURL.appending(path: "sql"), extensions: ["sql"])
            .filter { $0.lastPathComponent.first?.isNumber == true }
        let consoleRoot = context.package.directoryURL.appending(path: "console")
        let console = try files(in: consoleRoot, extensions: ["html", "css", "js", "svg"])
        let migrationsOutput = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        let consoleOutput = context.pluginWorkDirectoryURL.appending(path: "EmbeddedConsole.swift")
        switch target.name {
        case "CatalogStore":
            return [
                .buildCommand(
                    displayName: "Embedding \(migrations.count) SQL migrations", executable: tool,
                    arguments: ["migrations", migrationsOutput.path] + migrations.map(\.path),
                    inputFiles: migrations, outputFiles: [migrationsOutput])
            ]
        case "CatalogHTTP":
            return [
                .buildCommand(
                    displayName: "Embedding \(console.count) admin console files", executable: tool,
                    arguments: ["console", consoleRoot.path, consoleOutput.path] + console.map(\.path),
                    inputFiles: console, outputFiles: [consoleOutput])
            ]
        default:
            return []
        }
    }

    private func files(in folder: URL, extensions: Set<String>) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { extensions.contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
