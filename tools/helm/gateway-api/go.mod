module docsnap.dev/tools/helm/gateway-api

go 1.26.0

// Only the module's files are used, not its Go packages: config/crd/standard holds the upstream
// Gateway API CRDs (HTTPRoute among them) the chart's install test applies to the test apiserver.
// Kept out of tools/helm/go.mod so its requirements cannot move the versions Helm is built with.
// `go mod tidy` would drop this line (nothing imports the module): do not tidy this module.
require sigs.k8s.io/gateway-api v1.6.3
