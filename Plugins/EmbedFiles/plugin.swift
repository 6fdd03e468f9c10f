import Foundation
import PackagePlugin

/// Compiles the package's `sql/NNNN_*.sql` migrations into the store target, and `console/` (the admin console's HTML,
/// CSS and modules), `web/` (the web module) and `web/demo/` (the demo chat) into the HTTP target, so `stickerd` carries them wherever it runs. `sql/current/schema.sql` (the
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
        // The web module (web/stickers.js and its types) and the demo chat that uses it (web/demo/).
        let webRoot = context.package.directoryURL.appending(path: "web")
        let demoRoot = webRoot.appending(path: "demo")
        let web = try files(in: webRoot, extensions: ["js", "ts"])
        let demo = try files(in: demoRoot, extensions: ["html", "css", "js", "svg"])
        let webOutput = context.pluginWorkDirectoryURL.appending(path: "EmbeddedWeb.swift")
        let demoOutput = context.pluginWorkDirectoryURL.appending(path: "EmbeddedDemo.swift")
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
                    inputFiles: console, outputFiles: [consoleOutput]),
                .buildCommand(
                    displayName: "Embedding \(web.count) web module files", executable: tool,
                    arguments: ["web", webRoot.path, webOutput.path] + web.map(\.path),
                    inputFiles: web, outputFiles: [webOutput]),
                .buildCommand(
                    displayName: "Embedding \(demo.count) demo chat files", executable: tool,
                    arguments: ["demo", demoRoot.path, demoOutput.path] + demo.map(\.path),
                    inputFiles: demo, outputFiles: [demoOutput]),
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
