#!/usr/bin/env python3
"""A service whose manifest names COUNT images of MIB MiB each, for scripts/bench/client.sh (peak RSS of a sync).

  large-images.py PORT_FILE COUNT MIB   listens on 127.0.0.1 (a free port, written to PORT_FILE once listening) and
      serves GET /v1/manifest (one group, COUNT stickers) and each image, made from a seed chunk by chunk, so neither
      this server nor the disk holds them whole. Everything else is a 404 (no bundles: each image alone).
"""
import hashlib, http.server, json, random, sys

CHUNK = 1 << 20


def chunks(seed, mib):
    """The image `seed`: `mib` one-MiB chunks of its own."""
    rng = random.Random(seed)
    for _ in range(mib):
        yield rng.randbytes(CHUNK)


def manifest(count, mib):
    stickers = []
    for index in range(count):
        digest = hashlib.sha256()
        for chunk in chunks(index, mib):
            digest.update(chunk)
        sha = digest.hexdigest()
        link = {"url": f"/v1/assets/{sha}.png", "width": 1, "height": 1, "bytes": mib * CHUNK, "sha256": sha,
                "animated": False}
        stickers.append({"id": f"s{index}", "name": f"S{index}", "description": "large", "flags": [], "keywords": [],
                         "emoji": [], "animated": False, "frames": 1, "durationMs": 0, "loops": 0, "asset": link,
                         "thumbnail": link})
    group = {"id": "large", "name": "Large", "sizeClass": "small", "flags": [], "position": 0, "locked": False,
             "productId": None, "stickers": stickers}
    return {"revision": 1, "cursor": "c1", "filter": None, "flags": [], "scale": 1, "format": None, "locale": None,
            "groups": [group]}


def serve(port_file, count, mib):
    body = json.dumps(manifest(count, mib)).encode()
    seeds = {s["asset"]["url"]: index for index, s in enumerate(json.loads(body)["groups"][0]["stickers"])}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            path = self.path.split("?")[0]
            if path == "/v1/manifest":
                self.answer("application/json", len(body), [body])
            elif path in seeds:
                self.answer("image/png", mib * CHUNK, chunks(seeds[path], mib))
            else:
                self.answer("application/problem+json", 2, [b"{}"], status=404)

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.answer("application/problem+json", 2, [b"{}"], status=404)

        def answer(self, kind, length, parts, status=200):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(length))
            self.end_headers()
            for part in parts:
                self.wfile.write(part)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file, "w") as f:
        f.write(str(server.server_address[1]))
    server.serve_forever()


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
