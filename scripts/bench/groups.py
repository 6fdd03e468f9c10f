"""The group index's figures on a live stickerd (scripts/bench/groups.sh): python3 groups.py BASE_URL ADMIN_TOKEN."""
import json
import sys
import time
import urllib.request

base, admin = sys.argv[1], sys.argv[2]
view = "size=small&scale=2"


def get(path, encoding="identity", headers=None):
    """Status, body bytes as sent (compressed when asked), milliseconds to the last byte."""
    request = urllib.request.Request(base + path, headers={"Accept-Encoding": encoding, **(headers or {})})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request) as response:
            body = response.read()
            return response.status, body, (time.perf_counter() - started) * 1000
    except urllib.error.HTTPError as error:
        return error.code, error.read(), (time.perf_counter() - started) * 1000


def brotli_bytes(path):
    """The brotli answer's size once the service has made it at its best level (after 8 hits, off the request path)."""
    for _ in range(9):
        get(path, "br")
    time.sleep(0.5)
    return len(get(path, "br")[1])


def walk(limit):
    """Every page of the index: cold milliseconds, JSON bytes, brotli bytes, and each group's version."""
    cursor, pages, versions = None, [], {}
    while True:
        path = f"/v1/groups?{view}&limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        status, body, ms = get(path)
        assert status == 200, (status, body[:200])
        page = json.loads(body)
        versions.update({group["id"]: group["version"] for group in page["groups"]})
        pages.append((ms, len(body), path))
        cursor = page["next"]
        if not cursor:
            return pages, versions


def report_walk(limit):
    pages, versions = walk(limit)
    cold = sorted(ms for ms, _, _ in pages)
    br = sum(brotli_bytes(path) for _, _, path in pages)
    print(f"  limit {limit}: {len(pages)} pages, {len(versions)} groups; page cold p50 {cold[len(cold) // 2]:.1f} ms, "
          f"max {cold[-1]:.1f} ms (target 50); whole index {sum(b for _, b, _ in pages) / 1024:.0f} KiB JSON, "
          f"{br / 1024:.1f} KiB brotli (target 150 KB)")
    return versions


print("2. The whole index, every page, cold then brotli at its best level")
before = report_walk(100)
report_walk(500)

print("3. One group of 50, cold")
path = f"/v1/groups/search-77?{view}"
status, body, ms = get(path)
group = json.loads(body)
print(f"  /v1/groups/search-77: {status} in {ms:.1f} ms cold (target 10), {len(body)} bytes JSON, "
      f"{brotli_bytes(path)} bytes brotli (target 8 KB), {len(group['stickers'])} stickers")

print("4. A one-sticker change in search-77, five times")
sticker = group["stickers"][3]["id"]
times = []
for round in range(5):
    first = json.loads(get(f"/v1/groups?{view}&limit=100")[1])["revision"]
    request = urllib.request.Request(
        f"{base}/v1/admin/stickers/{sticker}", method="PATCH",
        data=json.dumps({"description": f"changed {round}"}).encode(),
        headers={"Authorization": f"Bearer {admin}", "Content-Type": "application/json"})
    urllib.request.urlopen(request).read()
    time.sleep(0.3)  # the change's NOTIFY reaches the replica: the next request reads the catalog and builds the page
    status, body, ms = get(f"/v1/groups?{view}&limit=100")
    assert json.loads(body)["revision"] > first, "the change was not seen within 0.3 s"
    times.append(ms)
after = walk(100)[1]
moved = sorted(id for id in before if before[id] != after.get(id))
times.sort()
print(f"  the index's first page after each change: median {times[2]:.1f} ms, max {times[-1]:.1f} ms (target 50); "
      f"versions moved: {moved} (target: search-77 only)")
