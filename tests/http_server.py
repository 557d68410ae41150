#!/usr/bin/env python3
"""tests/http_server.py - a loopback HTTP server for the push and fetch tests.

  GET  /files/NAME      NAME from --root, honouring "Range: bytes=N-"
                        (206 + Content-Range, RFC 9110 section 14)
  GET  /cut/NAME        the first time: announces the full length, sends
                        half of it and closes (an interrupted download);
                        later: as /files/NAME
  GET  /norange/NAME    always 200 with the whole file (ignores Range)
  POST /status/CODE     answers CODE with {"error": "simulated CODE"}
  POST anything else    204; the body is saved as --post-dir/N.body and
                        {"path", "headers"} as N.json
Every request is logged to --log as one JSON line {method, path, range,
authorization} (authorization: whether one was sent, and its scheme).
Listens on 127.0.0.1, port 0 (the kernel picks a free one), written to
--port-file once listening.
"""
import argparse
import http.server
import json
import os
import re
import socketserver
import threading

args = None
lock = threading.Lock()
cut_done = set()
post_n = [0]


def log(entry):
    with lock:
        with open(args.log, "a") as f:
            f.write(json.dumps(entry) + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *a):
        pass

    def _log(self):
        auth = self.headers.get("Authorization")
        log({"method": self.command, "path": self.path,
             "range": self.headers.get("Range"),
             "authorization": auth.split(" ")[0] if auth else None,
             "authorization_value": auth})

    def _send(self, code, body=b"", ctype="application/json", extra=None):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_GET(self):
        self._log()
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
        self._log()
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n)
        m = re.match(r"^/status/(\d{3})", self.path)
        if m:
            code = int(m.group(1))
            return self._send(code, json.dumps(
                {"error": "simulated %d" % code}).encode())
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
    args = p.parse_args()
    srv = Server(("127.0.0.1", 0), Handler)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, args.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
