#!/usr/bin/env python3
"""A misbehaving HTTP server on 127.0.0.1 for the API client's hardening tests (stdlib only).

    python3 hostile.py [--lifetime SECONDS]

Listens on two free ports and prints `LISTENING <hostile> <bystander>`. The hostile port answers a
POST by its path:

    /redirect/<status>?to=URL   <status> (301, 302, 303, 307, 308) with `Location: URL`
    /drip?interval=S            a valid GraphQL response of 64 bytes, one byte every S seconds
    /endless                    a chunked body of 64 KiB chunks that never ends (capped at 1 GiB)
    /gzip?inflated=N            `Content-Encoding: gzip`, a JSON body that inflates to N bytes
    /length?declared=N          `Content-Length: N`, then a few bytes and a stall
    /canned?body=NAME           the canned JSON body NAME (see CANNED) as application/json

and `GET /bystander` returns, as JSON, every request the bystander port received. The bystander
port stands for "another host": it records method, path, headers and body of whatever reaches it
and answers a GraphQL response a client must never return. The process exits after `--lifetime`
seconds (default 120), so a test that dies leaves nothing running for long.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

CANNED: dict[str, Any] = {
    # getPost4V2 answered with a Comment4V2 object.
    "wrong-typename-get": {"data": {"getPost4V2": {"__typename": "Comment4V2", "id": "p1", "title": "T"}}},
    # a Comment4V2 whose belongsTo post is typed as another model.
    "wrong-typename-nested": {
        "data": {
            "getComment4V2": {
                "__typename": "Comment4V2",
                "id": "c1",
                "content": "x",
                "post": {"__typename": "Comment4V2", "id": "p1"},
            }
        }
    },
    # a list page with one item of another type.
    "wrong-typename-list": {
        "data": {
            "listPost4V2s": {
                "items": [
                    {"__typename": "Post4V2", "id": "p1", "title": "ok"},
                    {"__typename": "Comment4V2", "id": "p2", "title": "bad"},
                ],
                "nextToken": None,
            }
        }
    },
    # a correct response with and without __typename.
    "right-typename-get": {"data": {"getPost4V2": {"__typename": "Post4V2", "id": "p1", "title": "T"}}},
    "no-typename-get": {"data": {"getPost4V2": {"id": "p1", "title": "T"}}},
}

BYSTANDER_ANSWER = json.dumps({"data": {"getPost4V2": {"__typename": "Post4V2", "id": "stolen", "title": "stolen"}}}).encode()
DRIP_BODY = json.dumps({"data": {"getPost4V2": None}}).encode().ljust(64)


class Bystander(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    received: list[dict[str, Any]] = []
    lock = threading.Lock()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def _record(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(min(length, 1 << 20)) if length else b""
        with self.lock:
            self.received.append(
                {
                    "method": self.command,
                    "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": body.decode("utf-8", "replace"),
                }
            )
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BYSTANDER_ANSWER)))
        self.end_headers()
        self.wfile.write(BYSTANDER_ANSWER)

    do_GET = do_POST = do_PUT = _record  # noqa: N815


class Hostile(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/bystander":
            with Bystander.lock:
                payload = json.dumps(Bystander.received).encode()
            self._plain(200, payload)
        else:
            self._plain(404, b"{}")

    def _plain(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(min(length, 1 << 20))
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        try:
            if url.path.startswith("/redirect/"):
                status = int(url.path.rsplit("/", 1)[1])
                self._plain(status, BYSTANDER_ANSWER, {"Location": query["to"]})
            elif url.path == "/drip":
                interval = float(query.get("interval", "0.4"))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(DRIP_BODY)))
                self.end_headers()
                for byte in DRIP_BODY:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(interval)
            elif url.path == "/endless":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b" " * 65536
                frame = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
                self.wfile.write(b'1\r\n{\r\n')
                for _ in range((1 << 30) // len(chunk)):
                    self.wfile.write(frame)
            elif url.path == "/gzip":
                inflated = int(query.get("inflated", str(256 << 20)))
                prefix, suffix = b'{"data": {"getPost4V2": ', b"null}}"
                buffer = io.BytesIO()
                with gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=9) as archive:
                    archive.write(prefix)
                    remaining = max(0, inflated - len(prefix) - len(suffix))
                    block = b" " * (1 << 20)
                    while remaining > 0:
                        archive.write(block[: min(remaining, len(block))])
                        remaining -= len(block)
                    archive.write(suffix)
                self._plain(200, buffer.getvalue(), {"Content-Encoding": "gzip"})
            elif url.path == "/length":
                declared = int(query["declared"])
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(declared))
                self.end_headers()
                self.wfile.write(b'{"data"')
                self.wfile.flush()
                time.sleep(5)
            elif url.path == "/canned":
                self._plain(200, json.dumps(CANNED[query["body"]]).encode())
            else:
                self._plain(404, b"{}")
        except (BrokenPipeError, ConnectionResetError):
            pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lifetime", type=float, default=120.0)
    args = parser.parse_args(argv)
    hostile = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    bystander = ThreadingHTTPServer(("127.0.0.1", 0), Bystander)
    hostile.daemon_threads = bystander.daemon_threads = True
    for server in (hostile, bystander):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"LISTENING {hostile.server_address[1]} {bystander.server_address[1]}", flush=True)
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()
    try:
        sys.stdin.read()  # the test closes stdin (or dies) to stop the server
    finally:
        os._exit(0)


if __name__ == "__main__":
    raise SystemExit(main())
