"""Prints a TCP port on 127.0.0.1 that nothing listens on now (scripts/lib.sh's free_port)."""
import socket

s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
