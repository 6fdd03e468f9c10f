"""The bundle benchmark's clients (scripts/bench/bundles.sh): greedy non-readers, then one bundle of random digests."""
import json, os, random, socket, subprocess, sys, time, urllib.request

base, pid, db = sys.argv[1], int(sys.argv[2]), sys.argv[3]
host, port = base.removeprefix("http://").split(":")


def rss_mib():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024


def post(source, digests):
    body = json.dumps({"assets": [{"sha256": d} for d in digests]}).encode()
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.bind((source, 0))
    client.connect((host, int(port)))
    client.sendall(b"POST /v1/assets/bundle HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                   + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    return client


def answered(clients):
    """How many of `clients` got each status so far (their first bytes, not waited for); "none" for no answer yet."""
    statuses = {}
    for client in clients:
        client.setblocking(False)
        try:
            head = client.recv(64).split(b" ")[1].decode()
        except (BlockingIOError, IndexError):
            head = "none"
        statuses[head] = statuses.get(head, 0) + 1
    return statuses


def commits():
    out = subprocess.run(["psql", "-tAX", "-h", db, "-U", "stickerd", "stickerd", "-c",
                          "SELECT xact_commit FROM pg_stat_database WHERE datname = 'stickerd'"],
                         capture_output=True, text=True, check=True).stdout
    return int(out.strip())


manifest = json.load(urllib.request.urlopen(f"{base}/v1/manifest?size=small&scale=2"))
digests = sorted({s["asset"]["sha256"] for g in manifest["groups"] for s in g["stickers"]})
print(f"1. 100 greedy clients, 256 of {len(digests)} distinct images each, never reading the answer")
before = rss_mib()
clients = [post(f"127.0.1.{n + 1}", digests[n * 97 % len(digests):][:256] or digests[:256]) for n in range(100)]
time.sleep(10)
statuses = answered(clients)
after = rss_mib()
print(f"   stickerd RSS {before:.0f} MiB before, {after:.0f} MiB with the 100 held: growth {after - before:.0f} MiB "
      f"(target at most 64 MiB); answers: {statuses}")
for client in clients:
    client.close()
time.sleep(1)

print("2. One bundle of 256 random digests")
idle_start = commits()
time.sleep(2)
idle = commits() - idle_start - 1
start = commits()
random_digests = ["%064x" % random.getrandbits(256) for _ in range(256)]
request = urllib.request.Request(f"{base}/v1/assets/bundle", method="POST",
                                 data=json.dumps({"assets": [{"sha256": d} for d in random_digests]}).encode(),
                                 headers={"Content-Type": "application/json"})
answer = urllib.request.urlopen(request).read()
time.sleep(2)
cost = commits() - start - 1 - idle
print(f"   {len(answer)} bytes ({len(answer) // 5} frames); {cost} database round trips beyond an idle 2 s "
      f"({idle} then) (target at most 2)")


def tcp_mem_mib():
    """What the kernel holds for all TCP sockets (/proc/net/sockstat's mem, in pages)."""
    for line in open("/proc/net/sockstat"):
        if line.startswith("TCP:"):
            fields = line.split()
            return int(fields[fields.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    return 0.0


print("3. 64 bundles of 256 different images from one address, never read (issue 48: all were answered 200)")
time.sleep(1)
before_kernel = tcp_mem_mib()
greedy = [post("127.0.2.1", digests[n * 97 % len(digests):][:256] or digests[:256]) for n in range(64)]
time.sleep(5)
answers = answered(greedy)
held = tcp_mem_mib() - before_kernel
print(f"   answers: {answers} (target: 429 past the address's bound of 16); the kernel's TCP memory grew "
      f"{held:.0f} MiB (target: at most the bound's worth, 16 x 0.5 MiB of send buffer = 8 MiB, plus the 429s)")
for client in greedy:
    client.close()
