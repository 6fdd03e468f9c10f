import Foundation
import PackagePlugin

/// Compiles the package's `sql/*.sql` migrations and `console/` (the admin console's HTML, CSS and modules) into the
/// target, so `stickerd` carries them wherever it runs.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let tool = try context.tool(named: "EmbedFilesTool").url
        let migrations = try files(in: context.package.directoryURL.appending(path: "sql"), extensions: ["sql"])
        let consoleRoot = context.package.directoryURL.appending(path: "console")
        let console = try files(in: consoleRoot, extensions: ["html", "css", "js", "svg"])
        let migrationsOutput = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        let consoleOutput = context.pluginWorkDirectoryURL.appending(path: "EmbeddedConsole.swift")
        return [
            .buildCommand(displayName: "Embedding \(migrations.count) SQL migrations", executable: tool,
                          arguments: ["migrations", migrationsOutput.path] + migrations.map(\.path),
                          inputFiles: migrations, outputFiles: [migrationsOutput]),
            .buildCommand(displayName: "Embedding \(console.count) admin console files", executable: tool,
                          arguments: ["console", consoleRoot.path, consoleOutput.path] + console.map(\.path),
                          inputFiles: console, outputFiles: [consoleOutput]),
        ]
    }

    private func files(in folder: URL, extensions: Set<String>) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { extensions.contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
