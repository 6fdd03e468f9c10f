"""What a schema cannot see in deploy/ (scripts/check-deploy.sh runs it from the project root): the shutdown
arithmetic, probe paths that openapi.yaml serves, environment variables that stickerd reads (and secrets from Secrets),
and alert rules that parse."""
import re, sys, yaml

def load(path):
    with open(path) as f:
        return yaml.safe_load(f)

failures = []
deployment = load("deploy/kubernetes/deployment.yaml")
pod = deployment["spec"]["template"]["spec"]
container = pod["containers"][0]
args = container["args"]
def flag(name, default):
    return int(args[args.index(name) + 1]) if name in args else default
pre_stop = container["lifecycle"]["preStop"]["sleep"]["seconds"]
drain, grace = flag("--drain-seconds", 0), flag("--shutdown-grace", 25)
needed = pre_stop + drain + grace
if pod["terminationGracePeriodSeconds"] < needed:
    failures.append(f"terminationGracePeriodSeconds {pod['terminationGracePeriodSeconds']} < preStop {pre_stop} + drain {drain} + grace {grace}")
spec = load("openapi.yaml")
for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
    path = container[probe]["httpGet"]["path"]
    if path not in spec["paths"]:
        failures.append(f"{probe} asks {path}, which openapi.yaml does not serve")
sources = open("Sources/stickerd/Serve.swift").read() + open("Sources/stickerd/PurchaseOptions.swift").read() + \
    open("Sources/stickerd/CommonOptions.swift").read() + open("Sources/stickerd/Stickerd.swift").read()
for job in (deployment, load("deploy/kubernetes/migrate-job.yaml")):
    for c in job["spec"]["template"]["spec"]["containers"]:
        for env in c.get("env", []):
            if f'"{env["name"]}"' not in sources and env["name"] != "DATABASE_URL":
                failures.append(f"{c['name']} sets {env['name']}, which stickerd does not read")
            ref = env.get("valueFrom", {}).get("secretKeyRef")
            if env["name"] in ("DATABASE_URL",) or "SECRET" in env["name"] or "TOKEN" in env["name"] or "KEY" in env["name"] or "AUTH" in env["name"]:
                if not ref:
                    failures.append(f"{env['name']} must come from a Secret")
rules = load("deploy/prometheus/alerts.yml")
for group in rules["groups"]:
    for rule in group["rules"]:
        if not {"alert", "expr"} <= rule.keys():
            failures.append(f"an alert rule without alert or expr: {rule}")
if failures:
    print("deploy/ checks failed:", *failures, sep="\n  ")
    sys.exit(1)
print(f"deploy/: manifests valid; shutdown {pre_stop} + {drain} + {grace} s within {pod['terminationGracePeriodSeconds']} s; "
      f"probes, environment and {sum(len(g['rules']) for g in rules['groups'])} alert rules checked")
