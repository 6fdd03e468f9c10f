"""schemathesis hooks for scripts/conformance.sh: what no schema can say a valid request holds.

schemathesis warns of an operation whose positive cases all got a 4xx ("mostly rejected"), taking it for a schema
looser than the code. Where the schema is looser, openapi.yaml says the code's bounds instead; these hooks cover what
a schema cannot describe, so that an operation is reported only when its schema is wrong. Only cases valid in every
part are touched:

- an Idempotency-Key is new for each request (the same key with another request is 422 by design, and Hypothesis
  draws "0" again and again);
- most positive cases (seven in ten) get live data in place of made-up data: a cursor the service signed for the
  case's own view; the id of a sticker (for a DELETE, one uploaded for the purpose), a stored webhook event or an
  entitlement that exists; a group id not taken yet; a real PNG in an upload's form (its lists empty); a cover sticker of the group; a
  Telegram bot's name. The others keep what schemathesis generated, so the refusals stay tested.

Environment: CONFORMANCE_URL, CONFORMANCE_TOKEN (the run's Authorization token), CONFORMANCE_PNG (a sticker's file).
"""
import http.client
import json
import os
import random
import re
import urllib.error
import urllib.parse
import urllib.request
import uuid

import schemathesis
from schemathesis import GenerationMode

BASE = os.environ["CONFORMANCE_URL"]
TOKEN = os.environ["CONFORMANCE_TOKEN"]
PNG = open(os.environ["CONFORMANCE_PNG"], "rb").read()
KEY = re.compile(r"^[!-~]{1,255}$")
VIEW = ("filter", "flags", "size", "scale", "format", "locale")
chance = random.Random(35)


def get(path, query=None):
    """The JSON the service answers to GET `path` with the run's token, or None."""
    url = BASE + path + ("?" + urllib.parse.urlencode(query) if query else "")
    request = urllib.request.Request(url, headers={"Authorization": "Bearer " + TOKEN})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except (urllib.error.URLError, http.client.HTTPException, ValueError, OSError):
        return None


def post(path, body, content_type="application/json"):
    """The JSON the service answers to POST `path` (JSON, or bytes of `content_type`), or None."""
    data = json.dumps(body).encode() if content_type == "application/json" else body
    request = urllib.request.Request(
        BASE + path, data=data, method="POST",
        headers={"Authorization": "Bearer " + TOKEN, "Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except (urllib.error.URLError, http.client.HTTPException, ValueError, OSError):
        return None


def throwaway_sticker():
    """The id of a sticker uploaded for a DELETE to take, so that deletes leave the demo catalog to the others."""
    found = groups()
    if not found:
        return None
    boundary = uuid.uuid4().hex
    parts = [("name", b"Throwaway"), ("description", b"A sticker uploaded to be deleted")]
    body = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value + b"\r\n"
        for name, value in parts)
    body += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="t.png"\r\n'
             "Content-Type: image/png\r\n\r\n").encode() + PNG + f"\r\n--{boundary}--\r\n".encode()
    made = post(f"/v1/admin/groups/{chance.choice(found)}/stickers", body, "multipart/form-data; boundary=" + boundary)
    return (made or {}).get("id")


def groups(with_stickers=False):
    """The id of every group, or of every group with a sticker (the admin run's token reads the admin routes)."""
    listed = (get("/v1/admin/groups") or {}).get("groups", [])
    return [group["id"] for group in listed if group.get("stickerCount", 0) > 0 or not with_stickers]


def stickers(group=None):
    """(group id, sticker id) of every sticker of `group`, or of a group with stickers chosen at random."""
    group = group or next(iter(chance.sample(groups(with_stickers=True), 1)), None)
    found = get(f"/v1/admin/groups/{urllib.parse.quote(group, safe='')}") if group else None
    return [(group, sticker["id"]) for sticker in (found or {}).get("stickers", [])]


def cursor(case):
    """A cursor for the view the case asks about, or None when the service shows none."""
    view = {name: value for name, value in (case.query or {}).items() if name in VIEW}
    if isinstance(view.get("flags"), list):
        view["flags"] = ",".join(view["flags"])
    return (get("/v1/manifest", view) or {}).get("cursor")


def live(case):
    """Puts live data into `case` where its operation needs some."""
    label = case.operation.label
    if label.endswith(" /v1/manifest/changes") or label.endswith(" /v1/events"):
        found = cursor(case)
        if found:
            case.query["since"] = found
            case.headers.pop("Last-Event-ID", None)
    elif label == "DELETE /v1/admin/stickers/{id}":
        made = throwaway_sticker()
        if made:
            case.path_parameters["id"] = made
    elif label.endswith(" /v1/admin/stickers/{id}"):
        found = stickers()
        if found:
            case.path_parameters["id"] = chance.choice(found)[1]
    elif "/v1/admin/webhook-events/{id}" in label:
        events = (get("/v1/admin/webhook-events") or {}).get("events", [])
        if events:
            case.path_parameters["id"] = chance.choice(events)["id"]
    elif label == "DELETE /v1/admin/users/{id}/entitlements/{productId}":
        user, product = case.path_parameters["id"], case.path_parameters["productId"]
        post(f"/v1/admin/users/{urllib.parse.quote(user, safe='')}/entitlements", {"productId": product})
    elif label == "POST /v1/admin/groups" and isinstance(case.body, dict) and isinstance(case.body.get("id"), str):
        # A new group: Hypothesis draws the id "0" again and again, and an id taken is 409 by design.
        case.body = {**case.body, "id": "conformance-" + uuid.uuid4().hex[:12]}
    elif label == "POST /v1/admin/groups/{id}/stickers":
        upload(case)
    elif label == "PATCH /v1/admin/groups/{id}" and isinstance(case.body, dict) and "coverStickerId" in case.body:
        covers = [sticker for _, sticker in stickers(case.path_parameters["id"])]
        case.body = {**case.body, "coverStickerId": chance.choice(covers) if covers else None}
    elif label == "PUT /v1/admin/groups/{id}/order":
        found = stickers()
        if found:
            case.path_parameters["id"] = found[0][0]
            case.body = {"stickerIds": chance.sample([sticker for _, sticker in found], len(found))}
    elif label.endswith(" /v1/admin/exports/{platform}"):
        for name in ("filter", "group"):
            case.query.pop(name, None)
        if case.path_parameters.get("platform") == "telegram":
            case.query["bot"] = "conformance_bot"


def upload(case):
    """A real PNG in a form, into a group that exists, with the form's lists empty and no end to its schedule: a list
    field is comma-separated text whose items must each be a flag, a keyword or one emoji, `localizedDescriptions` is
    JSON in a string, and `unpublishAt` must come after `publishAt`, none of which a pattern can say without refusing
    what the service accepts. A raw body is left as generated: schemathesis revalidates a changed body and takes bytes
    for a string schema as invalid (ST201 on the 201 that follows). For the same reason it counts a form with the PNG
    as a negative case, so its 201s do not count as accepted, and schemathesis still reports this operation: no data
    it generates is an image, and none that is an image counts as generated."""
    if not isinstance(case.body, dict):
        return
    found = groups()
    if found:
        case.path_parameters["id"] = chance.choice(found)
    # Bodies are assigned anew, here and above: a multipart body changed in place was sent as generated in the
    # fuzzing phase.
    body = {name: "" if name in ("flags", "keywords", "emoji", "localizedDescriptions") else value
            for name, value in case.body.items() if name != "unpublishAt"}
    body["file"] = PNG
    case.body = body


@schemathesis.hook
def before_call(context, case, **kwargs):
    # Only a case valid in every part: schemathesis revalidates what a hook changed, and a case meant to be refused
    # (a header left out, a value out of bounds) must reach the service as generated.
    meta = case.meta
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE:
        return
    if any(component.mode.is_negative for component in meta.components.values()):
        return
    if case.headers is not None and KEY.match(str(case.headers.get("Idempotency-Key", ""))):
        case.headers["Idempotency-Key"] = uuid.uuid4().hex
    if chance.random() < 0.3:
        return
    if case.query is None:
        case.query = {}
    if case.headers is None:
        case.headers = {}
    live(case)
