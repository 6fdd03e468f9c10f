"""Release history at 10,000 stickers (issue 24), against a live stickerd seeded by scripts/bench/catalog-search.sql:
1,000 releases made through the admin API (a mix: sticker edits, group renames, uploads, deletions, sticker orders),
the history's size next to the catalog's tables, then a restore of the release before them, timed end to end, and
the manifest afterwards compared byte for byte with that release's (revision and cursor apart).
Usage: releases.py BASE_URL ADMIN_TOKEN IMAGE PSQL_ARG..."""
import json
import re
import subprocess
import sys
import time
import urllib.request
import uuid

BASE, TOKEN, IMAGE, PSQL = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
RELEASES = 1000


def call(method, path, body=None, content_type="application/json", admin=True):
    headers = {"Authorization": f"Bearer {TOKEN}"} if admin else {}
    if body is not None:
        headers["Content-Type"] = content_type
        if content_type == "application/json":
            body = json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, method=method, data=body, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, response.read()


def stripped(manifest):
    """The manifest's bytes without its revision and cursor, and its revision."""
    parsed = json.loads(manifest)
    text = manifest.decode().replace(f'"revision":{parsed["revision"]}', "").replace(f'"cursor":"{parsed["cursor"]}"', "")
    return text, parsed["revision"]


def upload(group, name):
    boundary = uuid.uuid4().hex
    with open(IMAGE, "rb") as f:
        picture = f.read()
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
             for k, v in (("name", name), ("description", "Uploaded for the benchmark"))]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.png"\r\n'
                 f"Content-Type: image/png\r\n\r\n".encode() + picture + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return call("POST", f"/v1/admin/groups/{group}/stickers", body, f"multipart/form-data; boundary={boundary}")


def sql(query):
    return subprocess.run(["psql", "-X", "-A", "-t", "-q", *PSQL, "-c", query], check=True, capture_output=True, text=True).stdout.strip()


def stickers(group):
    return [s["id"] for s in json.loads(call("GET", f"/v1/admin/groups/{group}")[1])["stickers"]]


old, before = stripped(call("GET", "/v1/manifest", admin=False)[1])
releases_before = int(sql("SELECT count(*) FROM catalog_releases"))
started = time.monotonic()
for i in range(RELEASES):
    group = f"search-{1 + (i * 37) % 200}"
    kind = i % 10
    if kind <= 3:
        ids = stickers(group)
        call("PATCH", f"/v1/admin/stickers/{ids[i % len(ids)]}", {"description": f"Edited in release {i}", "keywords": ["edited", f"r{i}"]})
    elif kind <= 5:
        call("PATCH", f"/v1/admin/groups/{group}", {"name": f"Renamed in release {i}"})
    elif kind <= 7:
        upload(group, f"Bench{i}")
    elif kind == 8:
        ids = stickers(group)
        call("DELETE", f"/v1/admin/stickers/{ids[i % len(ids)]}")
    else:
        call("PUT", f"/v1/admin/groups/{group}/order", {"stickerIds": list(reversed(stickers(group)))})
made = int(sql("SELECT count(*) FROM catalog_releases")) - releases_before
print(f"1. {made} releases made through the admin API in {time.monotonic() - started:.0f} s "
      "(4 in 10 sticker edits, 2 group renames, 2 uploads, 1 deletion, 1 group's 50 stickers reversed)")

history = int(sql("SELECT sum(pg_total_relation_size(t)) FROM unnest(ARRAY['sticker_groups_history', 'stickers_history', "
                  "'filters_history', 'catalog_releases']::regclass[]) t"))
catalog = int(sql("SELECT sum(pg_total_relation_size(t)) FROM unnest(ARRAY['sticker_groups', 'stickers', 'filters']::regclass[]) t"))
rows = sql("SELECT (SELECT count(*) FROM stickers_history) || ' sticker versions for ' || (SELECT count(*) FROM stickers) || ' stickers'")
print(f"2. history: {history / 1048576:.1f} MiB next to the catalog's tables {catalog / 1048576:.1f} MiB (with indexes): "
      f"{history / catalog:.2f}x (target at most 2x); {rows}")

started = time.monotonic()
call("GET", "/v1/admin/releases?limit=50")
print(f"3. a page of 50 releases with their summaries: {(time.monotonic() - started) * 1000:.0f} ms")

for attempt in range(3):
    if attempt == 1:
        # What autovacuum does after 1,000 writes, done now rather than during the timing (it ran during attempt 0).
        sql("VACUUM ANALYZE")
    if attempt > 0:
        time.sleep(2)  # replicas have rebuilt their manifests after the previous restore
    started = time.monotonic()
    status, body = call("POST", f"/v1/admin/releases/{before}/restore")
    elapsed = time.monotonic() - started
    answer = json.loads(body)
    new, revision = stripped(call("GET", "/v1/manifest", admin=False)[1])
    when = "right after the 1,000 writes" if attempt == 0 else "on a settled database"
    print(f"4. restore of release {before} (before the 1,000), {when}: {elapsed * 1000:.0f} ms (target under 2 s); "
          f"changed={answer['changed']}; manifest at revision {revision} equals release {before}'s byte for byte apart from "
          f"revision and cursor: {'yes' if new == old else 'NO'} ({len(new)} bytes)")
    if attempt < 2:
        # Undo it (back to the newest of the 1,000), to time the restore again on a catalog that differs as much.
        call("POST", f"/v1/admin/releases/{revision - 1}/restore")
