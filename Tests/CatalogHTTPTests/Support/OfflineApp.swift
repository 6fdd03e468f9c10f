import CatalogApp
import CatalogCore
import CatalogHTTP
import Hummingbird
import Logging
import Prometheus
import TestSupport

/// The service's routes with no database: over `ports`, each of which fails the test that calls it unless the test set
/// it (`CatalogPorts.unimplemented`).
enum Offline {
    /// The router alone.
    static func router(
        ports: CatalogPorts = .unimplemented, options: ServiceOptions = ServiceOptions(), methodNotAllowed: Bool = true
    ) -> Router<AppRequestContext> {
        build(ports: ports, options: options, methodNotAllowed: methodNotAllowed).router
    }

    /// The application as `stickerd` serves it: the hot routes in front of the router, as `buildApplication` puts it.
    static func app(
        ports: CatalogPorts = .unimplemented, options: ServiceOptions = ServiceOptions()
    ) -> some ApplicationProtocol {
        Application(responder: build(ports: ports, options: options, methodNotAllowed: true).responder())
    }

    private static func build(
        ports: CatalogPorts, options: ServiceOptions, methodNotAllowed: Bool
    ) -> (
        router: Router<AppRequestContext>, responder: () -> ServiceResponder
    ) {
        let built = buildRouter(
            ports: ports, options: options, registry: PrometheusCollectorRegistry(), logger: Logger(label: "offline"),
            methodNotAllowed: methodNotAllowed)
        return (built.router, built.responder)
    }
}
