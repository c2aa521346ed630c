#!/usr/bin/env python3
"""agentlab-python-runtime: a second, independent agentlab-wire/1 runtime (docs/wire.md), standard library only.

    AGENTLAB_PROVIDER_BASE_URL=http://127.0.0.1:<p>/v1 AGENTLAB_PORTS_URL=http://127.0.0.1:<q>/ports \
        python3 runtimes/python/agentlab_runtime.py

The provider URL is the one the kit serves (docs/wire.md#configuration): ``http://127.0.0.1:<p>/routes/wire.<token>/v1``
when the kit starts the runtime, ``http://127.0.0.1:<p>/v1`` on a port fixed by ``agentlab.runtime.provider-port``.

listens on $AGENTLAB_RUNTIME_HOST:$AGENTLAB_RUNTIME_PORT (default 127.0.0.1:8787) and prints one line
``agentlab-python-runtime listening on http://127.0.0.1:<port>`` when ready.
"""

import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from agentlab_wire.server import serve  # noqa: E402


def main():
    host = os.environ.get("AGENTLAB_RUNTIME_HOST") or "127.0.0.1"
    port = int(os.environ.get("AGENTLAB_RUNTIME_PORT") or "8787")
    if host not in ("127.0.0.1", "localhost", "::1"):
        print("agentlab-python-runtime: loopback only; refusing to listen on %s" % host, file=sys.stderr)
        return 2
    server = serve(host, port, os.environ.get("AGENTLAB_PROVIDER_BASE_URL"), os.environ.get("AGENTLAB_PORTS_URL"),
                   os.environ.get("AGENTLAB_PROVIDER_API_KEY") or "agentlab-replay",
                   os.environ.get("AGENTLAB_RUNTIME_AGUI_PATH") or "/agui")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    bound_host, bound_port = server.server_address[:2]
    print("agentlab-python-runtime listening on http://%s:%d" % (bound_host, bound_port), flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
