"""Writes the form reader's fuzzing seeds into FOLDER: [boundary length][chunk size][boundary][body], as
Fuzz/UploadFuzz.swift reads them. Usage: form_seeds.py FOLDER (scripts/fuzz.sh runs it)."""
import sys
folder = sys.argv[1]
def seed(name, boundary, body, chunk=255):
    with open(f"{folder}/{name}", "wb") as f:
        f.write(bytes([len(boundary), chunk]) + boundary + body)
b = b"sticker-boundary"
part = lambda name, value, extra=b"": b"--" + b + b'\r\nContent-Disposition: form-data; name="' + name + b'"' + extra + b"\r\n\r\n" + value + b"\r\n"
seed("simple", b, part(b"name", b"Lemon") + part(b"description", b"A sour lemon") + part(b"file", b"\x89PNG\r\n\x1a\n", b'; filename="a.png"') + b"--" + b + b"--\r\n")
seed("preamble", b, b"preamble\r\n" + part(b"name", b"x") + b"--" + b + b"--\r\nepilogue", chunk=3)
seed("quoted", b"a'(+_,-./:=? z", part(b'we\\"ird', b"v") + b"--a'(+_,-./:=? z--")
seed("empty", b"x", b"--x--")
