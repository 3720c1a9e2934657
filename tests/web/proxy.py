"""nginx in front of several `jamaica serve` nodes, as docs/run-at-scale.md configures it: `/`
to any node (the next one when a node is down), `/node/NAME/` to node NAME (the prefix stripped).
Debian's `nginx`; without it the tests that need it skip on a developer's machine and fail when
JAMAICA_REQUIRE_SERVICES is set (CI)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from .server import free_port

PROXIED = """
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_read_timeout 1h;
        proxy_connect_timeout 2s;"""


class Nginx:
    def __init__(self, nodes: dict[str, int], backup: tuple[str, ...] = ()) -> None:
        """`backup`: nodes the front door uses only while the others are down."""
        if shutil.which("nginx") is None:
            if os.environ.get("JAMAICA_REQUIRE_SERVICES"):
                pytest.fail("nginx is required (JAMAICA_REQUIRE_SERVICES is set) but missing")
            pytest.skip("nginx is not installed")
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="jamaica-nginx-"))
        os.chmod(self.folder, 0o777)  # its workers may run as another user
        upstream = "".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=3s"
                           f"{' backup' if name in backup else ''}; "
                           for name, p in nodes.items())  # fmt: skip
        routes = "".join(f"\n    location /node/{name}/ {{ proxy_pass http://127.0.0.1:{p}/;"
                         f"{PROXIED} }}" for name, p in nodes.items())  # fmt: skip
        temp = " ".join(f"{k}_temp_path {self.folder}/{k};"
                        for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))  # fmt: skip
        (self.folder / "nginx.conf").write_text(f"""
worker_processes 1;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log;
daemon off;
events {{ worker_connections 512; }}
http {{
  access_log off;
  {temp}
  map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
  upstream jamaica {{ {upstream} }}
  server {{
    listen 127.0.0.1:{self.port};{routes}
    location / {{ proxy_pass http://jamaica; proxy_next_upstream error timeout;{PROXIED} }}
  }}
}}
""")
        self.proc = subprocess.Popen(
            ["nginx", "-c", str(self.folder / "nginx.conf"), "-p", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        end = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                assert self.proc.poll() is None, (self.folder / "error.log").read_text()
                assert time.monotonic() < end, "nginx did not start"
                time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Stop nginx and delete its folder (its configuration, logs and temporary files)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)
