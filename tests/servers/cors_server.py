"""A server that gets CORS wrong on purpose, for the tests of the diagnosis a person sees when a
request gets no status (src/adapters/http.rs). Standard library only; listens on 127.0.0.1:$PORT.
  --mode none          answers every request (200, a JSON error body) without any CORS header
  --mode no-preflight  sends Access-Control-Allow-Origin: * on GET and POST, but refuses OPTIONS (405)
The mode may come from CORS_MODE instead; other arguments (the e2e harness passes --transport) are
ignored.
"""

import argparse
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def handler(mode: str):
    class Handler(BaseHTTPRequestHandler):
        def answer(self, status: int, cors: bool) -> None:
            body = b'{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "not an MCP server"}}'
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            if cors:
                self.send_header("Access-Control-Allow-Origin", "*")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            self.answer(200, mode == "no-preflight")

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.answer(200, mode == "no-preflight")

        def do_OPTIONS(self) -> None:
            self.answer(405, False)

        def log_message(self, format: str, *args) -> None:
            pass

    return Handler


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=["none", "no-preflight"], default=os.environ.get("CORS_MODE"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "0")))
    args, _ = parser.parse_known_args()
    if args.mode is None:
        parser.error("--mode (or CORS_MODE) is required")
    ThreadingHTTPServer(("127.0.0.1", args.port), handler(args.mode)).serve_forever()
