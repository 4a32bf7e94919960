"""A loopback server speaking the MongoDB wire protocol that refuses every login, as a real mongod
does for a wrong password: `hello` is answered (so pymongo selects the server), then `saslStart`
gets `{ok: 0, code: 18, codeName: "AuthenticationFailed"}`, which pymongo raises as its own
`OperationFailure` (code 18). nx-27017 has no authentication, hence this stub.

    with AuthRefusingServer() as server:   # or .start() / .stop(); port= to reuse a port
        HistoryStore(f"mongodb://bob:wrong@127.0.0.1:{server.port}/")
        server.commands                    # names of the commands received, in order
"""

from __future__ import annotations

import socket
import socketserver
import struct
import threading
from datetime import datetime, timezone

import bson

OP_REPLY, OP_QUERY, OP_MSG = 1, 2004, 2013
_HELLO = {"hello", "ismaster", "isMaster"}


def _hello_reply(request: dict) -> dict:
    reply = {"helloOk": True, "ismaster": True, "isWritablePrimary": True, "maxBsonObjectSize": 16 * 1024 * 1024,
             "maxMessageSizeBytes": 48_000_000, "maxWriteBatchSize": 100_000, "localTime": datetime.now(timezone.utc),
             "logicalSessionTimeoutMinutes": 30, "connectionId": 1, "minWireVersion": 0, "maxWireVersion": 21,
             "readOnly": False, "ok": 1.0}
    if "saslSupportedMechs" in request:
        reply["saslSupportedMechs"] = ["SCRAM-SHA-256", "SCRAM-SHA-1"]
    return reply


_REFUSED = {"ok": 0.0, "errmsg": "Authentication failed.", "code": 18, "codeName": "AuthenticationFailed"}


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        sock: socket.socket = self.request
        while True:
            header = _read(sock, 16)
            if header is None:
                return
            length, request_id, _, op_code = struct.unpack("<iiii", header)
            body = _read(sock, length - 16)
            if body is None:
                return
            if op_code == OP_QUERY:  # the first hello of a connection
                name_end = body.index(b"\0", 4)
                doc = bson.decode(body[name_end + 9:])  # after flags, the name, numberToSkip/Return
                payload = bson.encode(self._answer(doc))
                out = struct.pack("<iqii", 0, 0, 0, 1) + payload
                reply_op = OP_REPLY
            elif op_code == OP_MSG:
                doc = bson.decode(body[5:5 + struct.unpack("<i", body[5:9])[0]])  # flags, kind 0, the body
                out = struct.pack("<I", 0) + b"\0" + bson.encode(self._answer(doc))
                reply_op = OP_MSG
            else:
                return
            sock.sendall(struct.pack("<iiii", 16 + len(out), request_id + 1, request_id, reply_op) + out)

    def _answer(self, doc: dict) -> dict:
        name = next(iter(doc), "")
        self.server.commands.append(name)  # type: ignore[attr-defined]
        return _hello_reply(doc) if name in _HELLO else _REFUSED


def _read(sock: socket.socket, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class AuthRefusingServer:
    def __init__(self, port: int = 0) -> None:
        self._port = port
        self._server: _Server | None = None
        self.commands: list[str] = []

    @property
    def port(self) -> int:
        return self._server.server_address[1] if self._server else self._port

    def start(self) -> "AuthRefusingServer":
        self._server = _Server(("127.0.0.1", self._port), _Handler)
        self._server.commands = self.commands  # type: ignore[attr-defined]
        self._port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "AuthRefusingServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
