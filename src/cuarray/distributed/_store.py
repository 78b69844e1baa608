"""The rendezvous of a process group: a small key-value store over TCP.

Rank 0 serves it from a daemon thread; every rank (rank 0 included) is a client. It holds
what the ranks must agree on before NCCL exists (the NCCL unique id) and implements
`barrier()`. Messages are one line of JSON each way, so nothing received is executed.
"""
import json
import socket
import socketserver
import threading
import time

_CONNECT_TIMEOUT = 120.0   # seconds a rank waits for rank 0's server to come up


class _Handler(socketserver.StreamRequestHandler):
    def handle(self):
        store = self.server.store
        for line in self.rfile:
            try:
                req = json.loads(line)
                reply = store.serve(req)
            except Exception as e:  # a bad request must not take the server down
                reply = {"error": f"{type(e).__name__}: {e}"}
            self.wfile.write(json.dumps(reply).encode() + b"\n")
            self.wfile.flush()


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class _State:
    """The server's data: values by key, and barrier generations."""

    def __init__(self, world_size):
        self.world_size = world_size
        self.values = {}
        self.arrived = {}       # barrier generation -> ranks arrived
        self.cond = threading.Condition()

    def serve(self, req):
        op = req["op"]
        with self.cond:
            if op == "set":
                self.values[req["key"]] = req["value"]
                self.cond.notify_all()
                return {"ok": True}
            if op == "get":
                ok = self.cond.wait_for(lambda: req["key"] in self.values, req.get("timeout"))
                if not ok:
                    return {"error": f"TimeoutError: no value for {req['key']!r}"}
                return {"value": self.values[req["key"]]}
            if op == "barrier":
                gen = req["generation"]
                self.arrived[gen] = self.arrived.get(gen, 0) + 1
                self.cond.notify_all()
                ok = self.cond.wait_for(lambda: self.arrived[gen] >= self.world_size,
                                        req.get("timeout"))
                if not ok:
                    return {"error": f"TimeoutError: barrier {gen}: {self.arrived[gen]} of "
                                     f"{self.world_size} ranks arrived"}
                return {"ok": True}
        raise ValueError(f"unknown store request {op!r}")


class TCPStore:
    """A client of the group's store; `rank == 0` also starts the server on (host, port)."""

    def __init__(self, host, port, rank, world_size, timeout=None):
        self.rank = rank
        self.world_size = world_size
        self.timeout = timeout
        self._server = None
        self._generation = 0
        if rank == 0:
            self._server = _Server((host, port), _Handler)
            self._server.store = _State(world_size)
            self.port = self._server.server_address[1]
            threading.Thread(target=self._server.serve_forever, daemon=True,
                             name="cuarray-distributed-store").start()
        else:
            self.port = port
        self._sock = self._connect(host, self.port)
        self._file = self._sock.makefile("rwb")
        self._lock = threading.Lock()

    @staticmethod
    def _connect(host, port):
        deadline = time.monotonic() + _CONNECT_TIMEOUT
        while True:
            try:
                return socket.create_connection((host, port), timeout=None)
            except OSError as e:
                if time.monotonic() > deadline:
                    raise ConnectionError(
                        f"could not reach the process group's store at {host}:{port} (rank 0 "
                        f"serves it) within {_CONNECT_TIMEOUT:.0f} s: {e}") from e
                time.sleep(0.05)

    def _ask(self, **req):
        if self.timeout is not None:
            req["timeout"] = self.timeout
        with self._lock:
            self._file.write(json.dumps(req).encode() + b"\n")
            self._file.flush()
            line = self._file.readline()
        if not line:
            raise ConnectionError("the process group's store closed the connection")
        reply = json.loads(line)
        if "error" in reply:
            kind, _, msg = reply["error"].partition(": ")
            raise (TimeoutError if kind == "TimeoutError" else RuntimeError)(msg)
        return reply

    def set(self, key, value):
        self._ask(op="set", key=key, value=value)

    def get(self, key):
        """The value of `key`, waiting until some rank has set it."""
        return self._ask(op="get", key=key)["value"]

    def barrier(self):
        """Return once every rank of the group has called barrier() as often as this one."""
        self._generation += 1
        self._ask(op="barrier", generation=self._generation)

    def stop(self):
        try:
            self._file.close()
            self._sock.close()
        finally:
            if self._server is not None:
                self._server.shutdown()
                self._server.server_close()
                self._server = None
