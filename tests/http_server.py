#!/usr/bin/env python3
"""tests/http_server.py - a loopback HTTP server for the push and fetch tests.

  GET  /files/NAME      NAME from --root, honouring "Range: bytes=N-"
                        (206 + Content-Range, RFC 9110 section 14)
  GET  /cut/NAME        the first time: announces the full length, sends
                        half of it and closes (an interrupted download);
                        later: as /files/NAME
  GET  /norange/NAME    always 200 with the whole file (ignores Range)
  GET  /redirect/CODE/...?to=URL   CODE with "Location: URL", as POST's
  POST /status/CODE     answers CODE with {"error": "simulated CODE"}
  POST /limit/N/...     413 with {"error": "request body exceeds N bytes"}
                        when the body is longer than N bytes, else as below
  POST /busy/CODE/S/VALUE/...  CODE with "Retry-After: VALUE" during the
                        first S seconds after the first request to this
                        path, then as below; VALUE "date+N" is the
                        HTTP-date (IMF-fixdate) N seconds after that first
                        request
  POST /redirect/CODE/...?to=URL   CODE with "Location: URL" (the query
                        parameter to=, URL-decoded; other parameters such
                        as db= are ignored)
  POST anything else    204; the body is saved as --post-dir/N.body and
                        {"path", "headers"} as N.json
Every request is logged to --log as one JSON line {method, path, range,
authorization, t (seconds since the epoch, when it arrived), length and
lines (of a POST body), code (the status answered)}; authorization: whether
one was sent, and its scheme.
Listens on 127.0.0.1, port --port (default 0: the kernel picks a free one),
written to --port-file once listening.
"""
import argparse
import email.utils
import http.server
import json
import os
import re
import socketserver
import threading
import time
import urllib.parse

args = None
lock = threading.Lock()
cut_done = set()
post_n = [0]
busy_first = {}


def log(entry):
    with lock:
        with open(args.log, "a") as f:
            f.write(json.dumps(entry) + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *a):
        pass

    def _log(self, **more):
        auth = self.headers.get("Authorization")
        entry = {"method": self.command, "path": self.path,
                 "range": self.headers.get("Range"),
                 "authorization": auth.split(" ")[0] if auth else None,
                 "authorization_value": auth, "t": self.t}
        entry.update(more)
        log(entry)

    def _send(self, code, body=b"", ctype="application/json", extra=None):
        if self.command == "POST":
            # logged before the answer: once kbench has it, the log has it
            self._log(length=len(self.body), lines=self.body.count(b"\n"),
                      code=code)
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_GET(self):
        self.t = time.time()
        self._log()
        m = re.match(r"^/redirect/(\d{3})[^?]*\?(.*)$", self.path)
        if m:
            to = urllib.parse.parse_qs(m.group(2)).get("to", [""])[0]
            return self._send(int(m.group(1)), b"", extra={"Location": to})
        m = re.match(r"^/(files|cut|norange)/([A-Za-z0-9._-]+)$", self.path)
        if not m:
            return self._send(404, b'{"error": "no such path"}')
        kind, name = m.groups()
        path = os.path.join(args.root, name)
        if not os.path.isfile(path):
            return self._send(404, b'{"error": "no such file"}')
        data = open(path, "rb").read()
        if kind == "cut" and name not in cut_done:
            with lock:
                cut_done.add(name)
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        rng = self.headers.get("Range")
        if kind != "norange" and rng:
            m = re.match(r"^bytes=(\d+)-$", rng)
            if not m:
                return self._send(400, b'{"error": "bad range"}')
            start = int(m.group(1))
            if start >= len(data):
                return self._send(416, b"", extra={
                    "Content-Range": "bytes */%d" % len(data)})
            return self._send(206, data[start:], "application/octet-stream",
                              {"Content-Range": "bytes %d-%d/%d" % (
                                  start, len(data) - 1, len(data))})
        self._send(200, data, "application/octet-stream")

    def do_POST(self):
        self.t = time.time()
        n = int(self.headers.get("Content-Length") or 0)
        body = self.body = self.rfile.read(n)
        m = re.match(r"^/status/(\d{3})", self.path)
        if m:
            code = int(m.group(1))
            return self._send(code, json.dumps(
                {"error": "simulated %d" % code}).encode())
        m = re.match(r"^/limit/(\d+)/", self.path)
        if m and len(body) > int(m.group(1)):
            return self._send(413, json.dumps(
                {"error": "request body exceeds %s bytes" % m.group(1)})
                .encode())
        m = re.match(r"^/busy/(\d{3})/([\d.]+)/([^/?]+)", self.path)
        if m:
            code, span, value = int(m.group(1)), float(m.group(2)), m.group(3)
            with lock:
                first = busy_first.setdefault(m.group(0), self.t)
            if self.t - first < span:
                d = re.match(r"^date([+-]\d+)$", value)
                if d:
                    value = email.utils.formatdate(first + int(d.group(1)),
                                                   usegmt=True)
                return self._send(code, json.dumps(
                    {"error": "busy"}).encode(), extra={"Retry-After": value})
        m = re.match(r"^/redirect/(\d{3})[^?]*\?(.*)$", self.path)
        if m:
            to = urllib.parse.parse_qs(m.group(2)).get("to", [""])[0]
            return self._send(int(m.group(1)), b"", extra={"Location": to})
        with lock:
            post_n[0] += 1
            k = post_n[0]
        with open(os.path.join(args.post_dir, "%d.body" % k), "wb") as f:
            f.write(body)
        with open(os.path.join(args.post_dir, "%d.json" % k), "w") as f:
            json.dump({"path": self.path,
                       "headers": dict(self.headers.items())}, f)
        self._send(204)


class Server(http.server.ThreadingHTTPServer):
    def server_bind(self):
        # HTTPServer.server_bind() calls socket.getfqdn(), which waits for
        # DNS; loopback only here
        socketserver.TCPServer.server_bind(self)
        self.server_name = "127.0.0.1"
        self.server_port = self.server_address[1]


def main():
    global args
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--post-dir", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--port-file", required=True)
    p.add_argument("--port", type=int, default=0)
    args = p.parse_args()
    srv = Server(("127.0.0.1", args.port), Handler)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, args.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
