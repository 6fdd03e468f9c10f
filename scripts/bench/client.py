#!/usr/bin/env python3
"""Helpers for scripts/bench/client.sh.

  client.py latency A_URL FOLDER ADMIN_TOKEN COUNT   uploads COUNT new stickers through replica A, each a picture of its
      own, and times from each 201 to the first new file in FOLDER/files (a sticker-sync --watch following replica B);
      prints p50 and p99 in ms.
  client.py boundaries A_URL FOLDER ADMIN_TOKEN COUNT   schedules COUNT groups through A, each due 1.5 s ahead, and
      times each moment to its sticker's file in FOLDER/files; prints p50 and p99 in ms.
  client.py streams B_URL COUNT PID                  opens COUNT /v1/events streams on replica B and prints the RSS of
      PID before and after (KiB) and per stream.
  client.py changes-page                             reads a /v1/manifest/changes page (standard input) and prints the
      groups it lists and its moreComing.
  client.py curl-config CATALOG_JSON BASE_URL        prints a curl -K config fetching what a sticker-sync first sync
      fetched (its catalog.json): the manifest, then every distinct asset and thumbnail, each once.
  client.py first-group MANIFEST_JSON FOLDER START   waits until every thumbnail of the manifest's first group is in
      FOLDER/files (a sticker-sync first sync under way) and prints the time since START (seconds since the epoch).
"""
import http.client, json, os, random, socket, struct, sys, time, urllib.parse, zlib


def png(side, seed):
    """A square RGBA sticker: a disc of a colour of its own on transparency, with a speckle so no two compress alike."""
    rng = random.Random(seed)
    colour = bytes([rng.randrange(256), rng.randrange(256), rng.randrange(256), 255])
    r2 = (side * 0.45) ** 2
    rows = []
    for y in range(side):
        row = bytearray(b"\0")
        dy = (y - side / 2) ** 2
        for x in range(side):
            row += colour if (x - side / 2) ** 2 + dy < r2 else b"\0\0\0\0"
        row[1 + 4 * rng.randrange(side)] ^= 0x55
        rows.append(bytes(row))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 6)) + chunk(b"IEND", b""))


def wait_for_new_png(files, before, within, what):
    """Returns once a .png not in `before` is in `files`; exits saying `what` after `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if any(name.endswith(".png") for name in set(os.listdir(files)) - before):
            return
        time.sleep(0.002)
    sys.exit(f"{what}: no new file within {within:.0f} s")


def percentiles(times, what):
    times.sort()
    print(f"{len(times)} {what}: p50 {times[len(times) // 2]:.0f} ms, p99 {times[min(len(times) - 1, int(len(times) * 0.99))]:.0f} ms, "
          f"max {times[-1]:.0f} ms")


def latency(base, folder, token, count):
    host = urllib.parse.urlsplit(base)
    files = os.path.join(folder, "files")
    times = []
    for n in range(count):
        body = png(408, f"{time.time()}-{n}")
        before = set(os.listdir(files))
        connection = http.client.HTTPConnection(host.hostname, host.port)
        connection.request("POST", f"/v1/admin/groups/crunchy/stickers?name=Bench%20{n}&description=Latency%20{n}", body,
                           {"Authorization": f"Bearer {token}", "Content-Type": "image/png"})
        answer = connection.getresponse()
        answer.read()
        started = time.monotonic()
        if answer.status != 201:
            sys.exit(f"upload {n}: HTTP {answer.status}")
        wait_for_new_png(files, before, 10, f"upload {n}")
        times.append((time.monotonic() - started) * 1000)
    percentiles(times, "uploads")


def boundaries(base, folder, token, count):
    """Each round schedules a new group through A to appear 1.5 s ahead, with a sticker uploaded into it (invisible
    until then), and times its moment to the sticker's file on disk of the watcher following B."""
    host = urllib.parse.urlsplit(base)
    files = os.path.join(folder, "files")
    late = []
    for n in range(count):
        moment = round(time.time() + 1.5, 3)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(moment)) + f".{int(round(moment % 1 * 1000)) % 1000:03d}Z"
        group = f"boundary-{int(moment * 1000)}"
        connection = http.client.HTTPConnection(host.hostname, host.port)
        connection.request("POST", "/v1/admin/groups", json.dumps({"id": group, "name": f"Boundary {n}", "publishAt": stamp, "position": 100000}),
                           {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        answer = connection.getresponse()
        answer.read()
        if answer.status != 201:
            sys.exit(f"boundary {n}: creating the group: HTTP {answer.status}")
        connection.request("POST", f"/v1/admin/groups/{group}/stickers?name=Boundary%20{n}&description=Scheduled%20{n}",
                           png(408, f"boundary-{moment}-{n}"), {"Authorization": f"Bearer {token}", "Content-Type": "image/png"})
        answer = connection.getresponse()
        answer.read()
        if answer.status != 201:
            sys.exit(f"boundary {n}: the upload: HTTP {answer.status}")
        before = set(os.listdir(files))
        if time.time() >= moment:
            sys.exit(f"boundary {n}: set up after its moment; the machine is too busy to measure")
        wait_for_new_png(files, before, moment - time.time() + 10, f"boundary {n}")
        late.append((time.time() - moment) * 1000)
    percentiles(late, "boundaries, moment to file on disk")


def rss(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def streams(base, count, pid):
    host = urllib.parse.urlsplit(base)
    before = rss(pid)
    sockets = []
    for n in range(count):
        s = socket.create_connection((host.hostname, host.port))
        s.sendall(f"GET /v1/events?size=small HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        sockets.append(s)
    opened = 0
    for s in sockets:
        s.settimeout(10)
        if b" 200 " in s.recv(4096):
            opened += 1
    time.sleep(1)
    after = rss(pid)
    print(f"{opened} of {count} streams open: RSS {before // 1024} MiB before, {after // 1024} MiB with them, "
          f"{(after - before) / max(opened, 1):.1f} KiB a stream")
    for s in sockets:
        s.close()


def changes_page():
    p = json.load(sys.stdin)
    print("  the page lists", [g["id"] for g in p["groups"]], "moreComing", p["moreComing"])


def curl_config(catalog, base):
    manifest = json.load(open(catalog))["manifest"]
    # The manifest first, as the sync reads it: both clients are timed end to end.
    print(f'url = "{base}/v1/manifest?size=small&scale=2"\noutput = "manifest.json"')
    seen = set()
    for group in manifest["groups"]:
        for s in group["stickers"]:
            for link in (s["asset"], s["thumbnail"]):
                if link["sha256"] not in seen:
                    seen.add(link["sha256"])
                    print(f'url = "{base}{link["url"]}"\noutput = "{link["sha256"]}.png"')


def first_group(manifest, folder, start):
    group = json.load(open(manifest))["groups"][0]
    wanted = {s["thumbnail"]["sha256"] + ".png" for s in group["stickers"]}
    files = os.path.join(folder, "files")
    deadline = time.time() + 120
    while time.time() < deadline:
        present = set(os.listdir(files)) if os.path.isdir(files) else set()
        if wanted <= present:
            print(f"the first group ({group['id']}, {len(wanted)} thumbnails) on disk {time.time() - start:.2f} s "
                  f"after sticker-sync started (target under 2 s)")
            return
        time.sleep(0.005)
    sys.exit("the first group's thumbnails never all arrived")


if __name__ == "__main__":
    if sys.argv[1] == "latency":
        latency(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif sys.argv[1] == "boundaries":
        boundaries(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif sys.argv[1] == "streams":
        streams(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "changes-page":
        changes_page()
    elif sys.argv[1] == "curl-config":
        curl_config(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "first-group":
        first_group(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    else:
        sys.exit(__doc__)
