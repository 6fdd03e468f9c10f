"""The soak's driver (scripts/soak.sh prepares PostgreSQL and the environment): two replicas, mixed traffic from
worker threads, faults on a schedule, then checks. Exits 1 when a check fails."""
import atexit, hashlib, hmac, json, os, random, re, shlex, socket, subprocess, sys, threading, time, urllib.error, urllib.request
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "browser"))
from pngs import disc_png  # noqa: E402

WORK, SOCKET = os.environ["SOAK_WORK"], os.environ["SOAK_SOCKET"]
STICKERD, DB = os.environ["SOAK_STICKERD"], os.environ["SOAK_DATABASE_URL"]
SECONDS = int(os.environ.get("SOAK_SECONDS", "600"))
WORKERS = int(os.environ.get("SOAK_WORKERS", "6"))
# The caches' bounds (manifest bodies and group fragments 64 MiB each, images 64, entitlements 16), about 70 MiB
# of process, and the catalog snapshots, which grow with the catalog the soak adds to.
RSS_LIMIT_MIB = int(os.environ.get("RSS_LIMIT_MIB", "400"))
ADMIN = "soak-admin-" + os.urandom(8).hex()
WEBHOOK_SECRET = "soak-webhook-secret-" + os.urandom(16).hex()
PRODUCT = "com.example.soak"
ENV = dict(os.environ, DATABASE_URL=DB, STICKER_ADMIN_TOKEN=ADMIN, STICKER_WEBHOOK_SECRETS=WEBHOOK_SECRET,
           STICKER_USER_JWT_SECRET="soak-user-secret-" + os.urandom(16).hex(),
           STICKER_ASSET_SIGNING_KEY="soak-asset-key-" + os.urandom(16).hex(),
           LOG_LEVEL=os.environ.get("SOAK_LOG_LEVEL", "warning"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Replica:
    def __init__(self, name):
        self.name, self.port, self.process = name, free_port(), None
        self.log = open(os.path.join(WORK, f"{name}.log"), "ab")

    def start(self):
        self.process = subprocess.Popen([STICKERD, "serve", "--demo", "--port", str(self.port), "--drain-seconds", "1",
                                         "--shutdown-grace", "15"], env=ENV, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if status(self, "GET", "/readyz")[0] == 200:
                return
            time.sleep(0.2)
        raise SystemExit(f"{self.name} did not become ready")

    def rss_mib(self):
        self.require_running()
        with open(f"/proc/{self.process.pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024

    def require_running(self):
        """Ends the soak with the replica's exit status and the end of its log when it is no longer running."""
        code = self.process.poll()
        if code is not None:
            self.log.flush()
            with open(self.log.name, "rb") as f:
                text = f.read().decode(errors="replace")
            raise SystemExit(f"replica {self.name} exited with status {code} during the soak; its log ends:\n"
                             f"{text[-20000:]}\n{crash_summary(text)}")


def crash_summary(log):
    """The runtime's fatal error and the crashed thread's first frames, printed last: CI shows an output's end, and a
    backtrace's registers and images would push them out of it."""
    lines = log.splitlines()
    fatal = [line for line in lines if "Fatal error" in line or "Program crashed" in line][-3:]
    crashed = next((i for i in range(len(lines) - 1, -1, -1) if re.search(r'Thread \d+( "[^"]*")? crashed', lines[i])), None)
    frames = []
    for line in lines[crashed:crashed + 40] if crashed is not None else []:
        if line.startswith("Registers"):
            break
        if line.strip() and len(frames) < 25:
            frames.append(line)
    return "crash summary:\n" + "\n".join(fatal + frames) if fatal or frames else "no crash report in the log"


def status(replica, method, path, body=None, headers=None, timeout=30):
    """(status, headers, body) of one request; status 0 when refused, -1 when the answer was lost."""
    request = urllib.request.Request(f"http://127.0.0.1:{replica.port}{path}", data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
    except (ConnectionRefusedError, urllib.error.URLError) as error:
        if isinstance(getattr(error, "reason", None), ConnectionRefusedError) or isinstance(error, ConnectionRefusedError):
            return 0, {}, b""
        return -1, {}, str(error).encode()
    except Exception as error:  # reset, timeout: the request may or may not have been applied
        return -1, {}, str(error).encode()


def json_of(body):
    try:
        return json.loads(body)
    except ValueError:
        return {}


a, b = Replica("a"), Replica("b")


@atexit.register
def stop_replicas():
    """However the soak ends (a failed check raises SystemExit), no replica outlives it."""
    for replica in (a, b):
        if replica.process and replica.process.poll() is None:
            replica.process.kill()
            replica.process.wait()


a.start()
b.start()
admin = {"Authorization": f"Bearer {ADMIN}"}
user_token = subprocess.run([STICKERD, "token", "user", "soak-reader", "--lifetime", str(SECONDS + 3600)], env=ENV,
                            capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
# Chewy premium, so that signed-in users and purchases matter; soak-reader holds it.
assert status(a, "PATCH", "/v1/admin/groups/chewy", json.dumps({"productId": PRODUCT}).encode(),
              {**admin, "Content-Type": "application/json"})[0] == 200
assert status(a, "POST", "/v1/admin/users/soak-reader/entitlements", json.dumps({"productId": PRODUCT}).encode(),
              {**admin, "Content-Type": "application/json"})[0] == 201
time.sleep(2)
rss = {"idle": {r.name: r.rss_mib() for r in (a, b)}}

results, windows, lock = [], [], threading.Lock()
# Answers after which an upload may or may not be stored: refused connections, lost answers, 503s, a key in use.
UNANSWERED, RETRY_SECONDS = (0, -1, 503, 409), 120
uploads, deliveries = {}, {}
counter = iter(range(1, 10**9))
stop = threading.Event()
started = time.monotonic()
assets = []


def record(kind, replica, code, headers, detail="", began=None):
    """One answer: when it came (and when its request was sent), what it was."""
    with lock:
        now = time.monotonic() - started
        results.append((now, kind, replica.name, code, "Retry-After" in headers or "retry-after" in headers, detail,
                        now if began is None else began))


def pick():
    """Like a load balancer: a replica at random, the other when it refuses the connection."""
    first = random.choice((a, b))
    return (first, b if first is a else a)


def send(kind, method, path, body=None, headers=None):
    for replica in pick():
        began = time.monotonic() - started
        code, answer_headers, answer = status(replica, method, path, body, headers)
        if code == 0:
            record(kind, replica, 0, {})
            continue
        record(kind, replica, code, answer_headers, answer[:200].decode("utf-8", "replace") if code >= 500 or code < 0 else "", began)
        return code, answer
    return 0, b""


def manifest():
    code, body = send("manifest cached", "GET", "/v1/manifest")
    if code == 200:
        urls = [s["asset"]["url"] for g in json_of(body).get("groups", []) for s in g["stickers"]]
        with lock:
            assets[:] = urls or assets


def cold_manifest():
    query = random.choice(["locale=fr", "locale=pt-BR", "locale=de", "size=small", "size=large&scale=1", "filter=chocoholic",
                           "flags=chocolate", "format=png&scale=2", "locale=ja&size=medium"])
    send("manifest varied", "GET", f"/v1/manifest?{query}&soak={random.randint(0, 50)}")


def signed_in():
    send("manifest signed-in", "GET", "/v1/manifest", headers={"Authorization": f"Bearer {user_token}"})


def asset():
    with lock:
        url = random.choice(assets) if assets else None
    if url:
        send("asset", "GET", url)


def upload():
    """An upload left without an answer (a 503 around an outage, an answer lost on the way) is sent again with its
    key until it gets one, as a client should: it is then stored once, and answered 201 if it was stored."""
    n = next(counter)
    key = f"soak-upload-{n}"
    png = disc_png(300, 300, (n % 256, (n // 256) % 256, 120))
    deadline = time.monotonic() + RETRY_SECONDS
    for attempt in range(1, 10**6):
        code, body = send("upload", "POST", f"/v1/admin/groups/crunchy/stickers?name=soak-{n}&description=Soak%20sticker%20{n}",
                          png, {**admin, "Content-Type": "image/png", "Idempotency-Key": key})
        if code not in UNANSWERED or time.monotonic() > deadline:
            break
        time.sleep(1)
    with lock:
        uploads[n] = (code, json_of(body).get("id") if code == 201 else None, attempt)


def webhook():
    """A delivery left without an answer (a 503 around an outage) is sent again, as every webhook sender does, until
    it gets one: the event id makes a second delivery of an event applied once, whatever happened to the first."""
    n = next(counter)
    user = f"soak-buyer-{n}"
    event = json.dumps({"id": f"soak-event-{n}", "type": "purchase", "userId": user, "productId": PRODUCT,
                        "transactionId": f"soak-tx-{n}", "occurredAt": int(time.time())}, sort_keys=True).encode()
    deadline = time.monotonic() + RETRY_SECONDS
    while True:
        t = str(int(time.time()))
        signature = hmac.new(WEBHOOK_SECRET.encode(), t.encode() + b"." + event, hashlib.sha256).hexdigest()
        code, _ = send("webhook", "POST", "/v1/webhooks/purchases", event,
                       {"Content-Type": "application/json", "Sticker-Signature": f"t={t},v1={signature}"})
        if code not in UNANSWERED or time.monotonic() > deadline:
            break
        time.sleep(1)
    with lock:
        deliveries[user] = code


MIX = [(manifest, 40), (cold_manifest, 15), (signed_in, 10), (asset, 20), (upload, 5), (webhook, 10)]
CHOICES = [f for f, weight in MIX for _ in range(weight)]


def worker():
    while not stop.is_set():
        random.choice(CHOICES)()


def until(fraction):
    time.sleep(max(0, started + SECONDS * fraction - time.monotonic()))


def both_ready():
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for replica in (a, b):
            replica.require_running()
        if all(status(r, "GET", "/readyz", timeout=5)[0] == 200 for r in (a, b)):
            return
        time.sleep(0.1)
    raise SystemExit("the replicas were not both ready within 60 s: " +
                     ", ".join(f"{r.name} /readyz {status(r, 'GET', '/readyz', timeout=5)[0]}" for r in (a, b)))


def restart_postgres(label):
    begin = time.monotonic() - started
    owner = shlex.split(os.environ.get("SOAK_AS_OWNER", ""))
    subprocess.run(owner + [os.environ["SOAK_PG_CTL"], "-D", os.environ["SOAK_PGDATA"], "-w", "-t", "60", "-m", "fast", "restart"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    both_ready()
    windows.append((label, begin, time.monotonic() - started))
    print(f"  {label}: {windows[-1][1]:.1f}-{windows[-1][2]:.1f} s", flush=True)


def restart_replica(label):
    begin = time.monotonic() - started
    b.process.send_signal(15)
    code = b.process.wait(timeout=30)
    if code != 0:
        raise SystemExit(f"replica b exited {code} on SIGTERM")
    b.start()
    windows.append((label, begin, time.monotonic() - started))
    print(f"  {label}: {windows[-1][1]:.1f}-{windows[-1][2]:.1f} s (exit 0)", flush=True)


print(f"soak: {SECONDS} s, {WORKERS} workers, replicas on :{a.port} and :{b.port}", flush=True)
threads = [threading.Thread(target=worker, daemon=True) for _ in range(WORKERS)]
for thread in threads:
    thread.start()
until(0.25); restart_postgres("PostgreSQL restart 1")
until(0.45); restart_replica("replica b SIGTERM and back")
until(0.70); restart_postgres("PostgreSQL restart 2")
until(1.0)
stop.set()
for thread in threads:
    thread.join(timeout=RETRY_SECONDS + 60)
both_ready()
time.sleep(2)
rss["end"] = {r.name: r.rss_mib() for r in (a, b)}

# Checks.
failures = []
by_kind = Counter((kind, code) for _, kind, _, code, _, _, _ in results)
print("requests:", len(results), f"({len(results) / SECONDS:.0f}/s)")
for (kind, code), count in sorted(by_kind.items()):
    print(f"  {kind:20} {code:>4} {count:>7}")
margin = 5.0
for t, kind, replica, code, _, detail, _ in results:
    if code == -1:
        print(f"  answer lost: {kind} on {replica} at {t:.1f} s: {detail}")
for t, kind, replica, code, retry_after, detail, sent in results:
    if code >= 500:
        # A request in flight during an outage may end in a 503 after it: one whose connection PostgreSQL's restart
        # killed is answered when the statement timeout (10 s) runs out.
        inside = any(sent <= end + margin and t >= begin - 1 for _, begin, end in windows)
        if code != 503 or not retry_after:
            failures.append(f"{kind} on {replica} at {t:.1f} s: {code} (only 503 with Retry-After is allowed): {detail}")
        elif not inside and "too_many_uploads" not in detail:
            failures.append(f"{kind} on {replica} at {t:.1f} s: 503 outside the outage windows: {detail}")
# Every upload was retried with its key until answered: each one stored is answered 201 and stored once, and each
# one answered 201 is stored.
for n, (code, sticker, attempts) in uploads.items():
    if code in UNANSWERED:
        failures.append(f"upload soak-{n} still had no answer after {attempts} attempts with its key: {code}")
    elif code == 201 and status(a, "GET", f"/v1/admin/stickers/{sticker}", headers=admin)[0] != 200:
        failures.append(f"upload soak-{n} was answered 201 but sticker {sticker} is not there")
names = Counter(subprocess.run(["psql", "-X", "-A", "-t", "-h", SOCKET, "-U", "stickerd", "stickerd", "-c",
                                "SELECT name FROM stickers WHERE name LIKE 'soak-%'"], capture_output=True, text=True, check=True).stdout.split())
stored = sum(names.values())
created = sum(1 for code, _, _ in uploads.values() if code == 201)
retried = sum(1 for _, _, attempts in uploads.values() if attempts > 1)
for name, count in names.items():
    if count > 1:
        failures.append(f"{name} stored {count} times")
    n = int(name.removeprefix("soak-"))
    if uploads.get(n, (None,))[0] != 201:
        failures.append(f"{name} stored, but its upload was answered {uploads.get(n, ('nothing',))[0]} after retries with its key")
lost_uploads = sum(1 for code, _, _ in uploads.values() if code == -1)
lost_deliveries = sum(1 for code in deliveries.values() if code == -1)
applied = 0
for user, code in deliveries.items():
    held = json_of(status(a, "GET", f"/v1/admin/users/{user}/entitlements", headers=admin)[2]).get("entitlements", [])
    holds = any(e["productId"] == PRODUCT for e in held)
    applied += holds
    if code == 200 and not holds:
        failures.append(f"the delivery for {user} was answered 200 but {user} does not hold {PRODUCT}")
answered = sum(1 for code in deliveries.values() if code == 200)
if not answered <= applied <= answered + lost_deliveries:
    failures.append(f"{applied} buyers hold the product for {answered} deliveries answered 200 ({lost_deliveries} answers lost)")
print(f"uploads: {created} answered 201, {stored} stored, {retried} retried with their key, {lost_uploads} answers lost; "
      f"webhooks: {answered} answered 200, {applied} applied, {lost_deliveries} answers lost")

# Memory at 10,000 stickers: the bench catalog, then manifests built on both replicas.
subprocess.run(["psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", "-h", SOCKET, "-U", "stickerd", "stickerd", "-f",
                os.path.join(os.path.dirname(__file__), "..", "bench", "catalog-10k.sql")], check=True, stdout=subprocess.DEVNULL)
time.sleep(1)
for replica in (a, b):
    for query in ("", "?size=small&scale=2", "?locale=fr", "?format=png"):
        code = status(replica, "GET", "/v1/manifest" + query, timeout=120)[0]
        if code != 200:
            failures.append(f"manifest{query} at 10,000 stickers on {replica.name}: {code}")
time.sleep(2)
rss["10,000 stickers"] = {r.name: r.rss_mib() for r in (a, b)}
for moment, values in rss.items():
    print(f"RSS {moment}: " + ", ".join(f"{name} {mib:.0f} MiB" for name, mib in values.items()))
    for name, mib in values.items():
        if mib > RSS_LIMIT_MIB:
            failures.append(f"replica {name} at {moment}: {mib:.0f} MiB RSS, over the {RSS_LIMIT_MIB} MiB bound")
for replica in (a, b):
    replica.process.send_signal(15)
    if replica.process.wait(timeout=30) != 0:
        failures.append(f"replica {replica.name} did not exit 0 on SIGTERM")
if failures:
    print("SOAK FAILED:", *failures[:40], sep="\n  ")
    sys.exit(1)
print("soak passed")
