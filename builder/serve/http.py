"""The preview's web server: the output folder as it is, each HTML page with a small script
that reloads it after a rebuild, and the last build's error shown on every page until a build
succeeds.

The script asks ``/__appendix__/state`` once a second (a JSON object: the number of the last
good build and the last build's error); a new number reloads the page. The error is also
written into each page the server sends (``ERROR_ID``), so that it shows without scripts.
The standard library's threaded HTTP server is all a preview for one person needs.
"""

from __future__ import annotations

import html
import http.server
import json
import threading
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

STATE_PATH = "/__appendix__/state"
ERROR_ID = "appendix-build-error"
RELOAD_SCRIPT = """<script>
(function () {
  var seen = null;
  function look() {
    fetch("STATE_PATH", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (s) {
      if (seen !== null && s.build !== seen) { location.reload(); return; }
      seen = s.build;
      var box = document.getElementById("ERROR_ID");
      if (s.error && !box) {
        box = document.createElement("pre");
        box.id = "ERROR_ID";
        box.setAttribute("role", "alert");
        document.body.insertBefore(box, document.body.firstChild);
      }
      if (box) { box.textContent = s.error ? "The site could not be rebuilt:\\n" + s.error : ""; box.hidden = !s.error; }
    }).catch(function () {}).then(function () { setTimeout(look, 1000); });
  }
  look();
}());
</script>
""".replace("STATE_PATH", STATE_PATH).replace("ERROR_ID", ERROR_ID)
ERROR_STYLE = ("position:sticky;top:0;z-index:100;margin:0;padding:1em;background:#fde8e8;"
               "color:#7a1010;border-bottom:2px solid #7a1010;white-space:pre-wrap")


@dataclass
class BuildState:
    """What the server tells the pages: the number of the last good build and the last
    build's error (empty when it succeeded). Shared between the loop and the server's
    threads."""

    build: int = 0
    error: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def succeeded(self) -> None:
        with self.lock:
            self.build += 1
            self.error = ""

    def failed(self, error: str) -> None:
        with self.lock:
            self.error = error

    def as_json(self) -> bytes:
        with self.lock:
            return json.dumps({"build": self.build, "error": self.error}).encode("utf-8")

    def banner(self) -> str:
        with self.lock:
            error = self.error
        if not error:
            return ""
        return (f'<pre id="{ERROR_ID}" role="alert" style="{ERROR_STYLE}">The site could not '
                f"be rebuilt:\n{html.escape(error)}</pre>\n")


class PreviewHandler(http.server.SimpleHTTPRequestHandler):
    """Files of the site folder; HTML pages with the reload script and the error banner."""

    def __init__(self, *args, state: BuildState, **kwargs) -> None:
        self.state = state
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:
        if self.path.split("?", 1)[0] == STATE_PATH:
            self._send(200, "application/json", self.state.as_json())
            return
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix == ".html":
            try:
                body = path.read_bytes()
            except OSError:  # missing (or gone while a rebuild swaps the site in)
                self.send_error(404)
                return
            self._send(200, "text/html; charset=utf-8", self._page(body))
            return
        super().do_GET()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None):
        """A missing page: the site's own 404 page, as a static host shows it."""
        try:
            body = (Path(self.directory) / "404.html").read_bytes() if code == 404 else None
        except OSError:
            body = None
        if body is None:
            super().send_error(code, message, explain)
            return
        self._send(404, "text/html; charset=utf-8", self._page(body))

    def _page(self, body: bytes) -> bytes:
        text = body.decode("utf-8", "replace")
        banner = self.state.banner()
        if banner:
            text = text.replace("<body>", f"<body>\n{banner}", 1)
        at = text.rfind("</body>")
        text = text[:at] + RELOAD_SCRIPT + text[at:] if at >= 0 else text + RELOAD_SCRIPT
        return text.encode("utf-8")

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass  # the console is for the builds


def make_server(site: Path, host: str, port: int, state: BuildState
                ) -> http.server.ThreadingHTTPServer:
    handler = partial(PreviewHandler, directory=str(site), state=state)
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server
