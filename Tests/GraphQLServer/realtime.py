"""AppSync's real-time WebSocket endpoint for the local GraphQL server (server.py).

Speaks the protocol of AWS's guide "Building a real-time WebSocket client in AWS AppSync" on
`GET /graphql/realtime` of the server's own port (the custom-domain form of the endpoint), with the
`graphql-ws` subprotocol:

  client: connection_init                 server: connection_ack {connectionTimeoutMs}, then ka
  client: start {id, payload: {data: "{query, variables}", extensions: {authorization}}}
                                          server: start_ack {id} | error {id, payload: {errors}}
                                          server: data {id, payload: {data: {<field>: ...}}}
  client: stop {id}                       server: complete {id}

The handshake's `header` query parameter (base64 JSON) carries the authorization, and so does each
`start`'s `extensions.authorization`. With `--auth-config`, both go through auth.py's
`Authorizer.authenticate`, as the HTTP requests do: every mode (API key, user pools and OIDC JWTs
with issuer, audience, expiry and claims, the Lambda test authorizer, IAM SigV4). As AppSync's
real-time guide describes, IAM signs the handshake as a `POST` of `{}` to `/graphql/connect` and a
`start` as a `POST` of its `data` string to `/graphql`, the signed headers (with `host`) being the
authorization object. A `start` must also pass the subscription field's `@aws_*` directives for
the identity's mode, and each event is executed with that identity (field rules apply). Without
`--auth-config`, `--api-key` alone is checked. A refused handshake gets `connection_error`
(`UnauthorizedException`, `errorCode` 401, and the reason as `message`) and a close; a refused
`start` gets `error` for that id (`UnauthorizedException`, or `Unauthorized` for a field the mode may
not reach, AppSync's shapes). Subscription
documents are parsed and validated with graphql-core against the served schema. Every successful
mutation is published to the subscriptions whose field lists it in `@aws_subscribe(mutations:)`,
whose `filter` matches the record and whose owner arguments (when given) equal the record's owner
fields; each subscriber gets its own selection set, executed against the record. With `@auth` rules
(the manifest's), a `start` whose owner argument names another caller is refused unless an outright
rule (public, private, a static group) lets the caller read every record, and an owner or dynamic
group reader receives only the records those rules let it read.

WebSocket framing is the `websockets` package's Sans-I/O protocol (pinned in requirements.txt),
driven on the HTTP server's handler thread that received the upgrade.

Test hooks: `x-test-realtime-fault` and `x-test-realtime-timeout-ms` in the handshake's `header`
JSON (see README.md), `POST /test/realtime/drop` (drop every connection without a close frame) and
`GET /test/realtime/subscriptions` (the active subscriptions, each with the authorization mode its
`start` authenticated with under `--auth-config`, else null), `GET /test/realtime/connections`.
"""

from __future__ import annotations

import base64
import json
import queue
import socket
import threading
import urllib.parse
from typing import Any, Callable

from graphql import GraphQLError, OperationDefinitionNode, OperationType, execute, parse, validate
from graphql.execution.values import get_argument_values, get_variable_values
from graphql.language import FieldNode
from graphql.utilities import value_from_ast_untyped
from websockets.frames import Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol

import auth  # this folder: the authorization modes (server.py puts it on the path)

SUBPROTOCOL = "graphql-ws"
DEFAULT_CONNECTION_TIMEOUT_MS = 300_000
DEFAULT_KA_INTERVAL_S = 60.0
MAX_CLIENT_MESSAGE = 1 << 20
FAULTS = ("never-ack", "no-ka", "malformed", "unknown-type", "unknown-id", "numeric-id", "huge", "close-mid-frame")


def is_upgrade(path: str, headers: Any) -> bool:
    """Whether a GET is a WebSocket upgrade to the real-time endpoint."""
    return urllib.parse.urlsplit(path).path == "/graphql/realtime" and (
        (headers.get("Upgrade") or "").lower() == "websocket"
    )


class Rejected(Exception):
    """An authorization object the endpoint refuses; `message` is the reason (may be empty)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Registration:
    """One started subscription: its document, root field and coerced arguments."""

    def __init__(self, sub_id: str, document: Any, field_name: str, arguments: dict, variables: dict,
                 operation_name: str | None, identity: Any = None) -> None:
        self.id = sub_id
        self.identity = identity  # auth.Identity of the start's authorization (--auth-config)
        self.document = document
        self.field_name = field_name
        self.arguments = arguments
        self.variables = variables
        self.operation_name = operation_name


class Connection:
    """One WebSocket connection; all protocol state behind `lock` (reads, writes and publishes)."""

    def __init__(self, hub: "RealtimeHub", sock: socket.socket, protocol: ServerProtocol, header: dict) -> None:
        self.hub = hub
        self.sock = sock
        self.protocol = protocol
        self.header = header
        self.lock = threading.Lock()
        self.registrations: dict[str, Registration] = {}
        self.closed = threading.Event()
        self.fault = hub.fault_for(header)
        timeout = header.get("x-test-realtime-timeout-ms")
        self.timeout_ms = int(timeout) if str(timeout or "").isdigit() else DEFAULT_CONNECTION_TIMEOUT_MS
        self.ka_interval = min(DEFAULT_KA_INTERVAL_S, self.timeout_ms / 3000)
        self.acked = False

    # -- writing

    def _flush(self) -> None:
        data = b"".join(self.protocol.data_to_send())
        if data:
            self.sock.sendall(data)

    def send(self, message: Any) -> None:
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        with self.lock:
            if self.closed.is_set():
                return
            try:
                self.protocol.send_text(text.encode())
                self._flush()
            except (OSError, Exception):  # noqa: BLE001 - a dead peer must not break publishing
                self.drop()

    def drop(self) -> None:
        """Closes the TCP connection without a close frame (the drop test hook)."""
        self.closed.set()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    # -- the session

    def run(self) -> None:
        threading.Thread(target=self._keep_alive, daemon=True).start()
        buffer: list[bytes] = []
        try:
            while not self.closed.is_set():
                data = self.sock.recv(65536)
                with self.lock:
                    if not data:
                        self.protocol.receive_eof()
                    else:
                        self.protocol.receive_data(data)
                    events = self.protocol.events_received()
                    try:
                        self._flush()
                    except OSError:
                        break
                for frame in events:
                    if frame.opcode == Opcode.TEXT:
                        buffer = [frame.data]
                    elif frame.opcode == Opcode.CONT:
                        buffer.append(frame.data)
                    else:
                        continue
                    if frame.fin:
                        self._message(b"".join(buffer))
                        buffer = []
                if not data or self.protocol.close_expected():
                    break
        except OSError:
            pass
        finally:
            self.closed.set()
            try:
                self.sock.close()
            except OSError:
                pass

    def _keep_alive(self) -> None:
        while not self.closed.wait(self.ka_interval):
            if self.acked and self.fault != "no-ka":
                self.send({"type": "ka"})

    def _message(self, raw: bytes) -> None:
        try:
            message = json.loads(raw)
            kind = message["type"]
            if not isinstance(message, dict):
                raise TypeError
        except (ValueError, KeyError, TypeError, RecursionError):
            self.send({"type": "error", "payload": {"errors": [
                {"errorType": "UnsupportedOperation", "message": "The message is not a JSON object with a 'type'."}]}})
            return
        try:
            self._dispatch(kind, message)
        except Exception:  # noqa: BLE001 - a message of any shape gets an answer, never a dropped connection
            error = {"errorType": "UnsupportedOperation", "message": "The message could not be processed."}
            reply: dict[str, Any] = {"type": "error", "payload": {"errors": [error]}}
            if isinstance(message.get("id"), str):
                reply["id"] = message["id"]
            self.send(reply)

    def _dispatch(self, kind: Any, message: dict) -> None:
        if kind == "connection_init":
            self._connection_init()
        elif kind == "start":
            self._start(message)
        elif kind == "stop":
            sub_id = message.get("id")
            with self.lock:
                self.registrations.pop(sub_id, None)
            self.send({"type": "complete", "id": sub_id})
        else:
            self.send({"type": "error", "payload": {"errors": [
                {"errorType": "UnsupportedOperation", "message": f"Unknown message type '{kind}'."}]}})

    def _connection_init(self) -> None:
        try:
            self.hub.identify(self.header, "/graphql/connect", b"{}")
        except Rejected as rejection:
            # AppSync's shape: errorType and errorCode (and, with --auth-config, the reason).
            error: dict[str, Any] = {"errorType": "UnauthorizedException", "errorCode": 401}
            if rejection.message:
                error["message"] = rejection.message
            self.send({"type": "connection_error", "payload": {"errors": [error]}})
            with self.lock:
                self.protocol.send_close(1000, "")
                self._flush()
            return
        if self.fault == "never-ack":
            return
        timeout = 500 if self.fault == "no-ka" else self.timeout_ms
        self.send({"type": "connection_ack", "payload": {"connectionTimeoutMs": timeout}})
        self.acked = True
        if self.fault == "malformed":
            self.send('{"type": "ka"')
        elif self.fault == "unknown-type":
            self.send({"type": "surprise"})
        elif self.fault == "close-mid-frame":
            with self.lock:
                # A text frame header announcing 1000 bytes, 10 of them, then the connection ends.
                self.sock.sendall(bytes([0x81, 126, 0x03, 0xE8]) + b'{"type":"d')
            self.drop()
        elif self.fault != "no-ka":
            self.send({"type": "ka"})

    def _start(self, message: dict) -> None:
        sub_id = message.get("id")
        payload = message.get("payload") or {}
        if not isinstance(payload, dict):
            payload = {}

        def fail(error_type: str, text: str) -> None:
            self.send({"type": "error", "id": sub_id, "payload": {"errors": [{"errorType": error_type, "message": text}]}})

        if not isinstance(sub_id, str) or not sub_id:
            fail("UnsupportedOperation", "A start message needs an 'id'.")
            return
        extensions = payload.get("extensions")
        authorization = (extensions.get("authorization") if isinstance(extensions, dict) else None) or {}
        data = payload.get("data") if isinstance(payload.get("data"), str) else ""
        try:
            identity = self.hub.identify(authorization, "/graphql", data.encode())
        except Rejected as rejection:
            fail("UnauthorizedException", rejection.message or "You are not authorized to make this call.")
            return
        try:
            request = json.loads(payload.get("data") or "")
            query = request["query"]
            variables = request.get("variables") or {}
            if not isinstance(query, str) or not isinstance(variables, dict):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            fail("MalformedHttpRequestException", "payload.data must be a JSON string of {query, variables}.")
            return
        registration, errors = self.hub.prepare(sub_id, query, variables, request.get("operationName"), identity)
        if errors:
            self.send({"type": "error", "id": sub_id, "payload": {"errors": errors}})
            return
        with self.lock:
            self.registrations[sub_id] = registration
        self.send({"type": "start_ack", "id": sub_id})
        if self.fault == "unknown-id":
            self.send({"type": "data", "id": "no-such-subscription", "payload": {"data": {}}})
        elif self.fault == "numeric-id":  # the start's id echoed as a JSON number, not the string sent
            self.send({"type": "data", "id": 1, "payload": {"data": {}}})
        elif self.fault == "complete":  # the server ends the subscription itself
            self.send({"type": "complete", "id": sub_id})
        elif self.fault == "wrong-typename":  # an event whose model is of another type
            self.send({"type": "data", "id": sub_id, "payload": {"data": {registration.field_name: {
                "__typename": "SomethingElse", "id": "x"}}}})
        elif self.fault == "huge":
            self.send('{"type":"data","id":"' + sub_id + '","payload":{"data":{"x":"' + "a" * (50 << 20) + '"}}}')


class RealtimeHub:
    """The real-time endpoint of one API: connections, registrations, publishing."""

    def __init__(self, api: Any, api_key: str | None, format_error: Callable[[GraphQLError, str], dict],
                 matches: Callable[[dict, Any], bool], authorizer: Any = None) -> None:
        self.api = api
        self.api_key = api_key
        self.authorizer = authorizer  # auth.Authorizer with --auth-config: every mode, as over HTTP
        self.format_error = format_error
        self.matches = matches  # server.matches: the same filter semantics as list queries
        self.lock = threading.Lock()
        self.connections: set[Connection] = set()
        self.faulted: dict[str, int] = {}  # fault -> connections that asked for it
        self.triggers = self._read_triggers()
        self.events: "queue.Queue[tuple[str, dict]]" = queue.Queue()
        threading.Thread(target=self._publisher, daemon=True).start()

    def _read_triggers(self) -> dict[str, list[str]]:
        """Subscription field -> the mutation fields of its @aws_subscribe(mutations:)."""
        triggers: dict[str, list[str]] = {}
        root = self.api.schema.subscription_type
        if root is None:
            return triggers
        for name, field in root.fields.items():
            for directive in getattr(field.ast_node, "directives", None) or []:
                if directive.name.value == "aws_subscribe":
                    for arg in directive.arguments:
                        if arg.name.value == "mutations":
                            triggers[name] = list(value_from_ast_untyped(arg.value))
        return triggers

    def fault_for(self, header: dict) -> str:
        """The connection's `x-test-realtime-fault`, unless `x-test-realtime-fault-connections: N`
        limits it to the first N connections that asked for it."""
        fault = str(header.get("x-test-realtime-fault") or "")
        limit = str(header.get("x-test-realtime-fault-connections") or "")
        if not fault or not limit.isdigit():
            return fault
        with self.lock:
            self.faulted[fault] = self.faulted.get(fault, 0) + 1
            return fault if self.faulted[fault] <= int(limit) else ""

    def identify(self, headers: Any, path: str, body: bytes) -> Any:
        """The auth.Identity of an authorization object (the handshake's `header`, a start's
        `extensions.authorization`) as a `POST` of `body` to `path`; None without --auth-config.
        Raises Rejected."""
        if not isinstance(headers, dict):
            raise Rejected("Valid authorization header not provided.")
        if self.authorizer is None:
            if self.api_key is not None and headers.get("x-api-key") != self.api_key:
                raise Rejected("")
            return None
        lowered = {str(k).lower(): str(v) for k, v in headers.items()}
        try:
            return self.authorizer.authenticate("POST", path, lowered, body)
        except auth.Rejection as rejection:
            raise Rejected(rejection.message) from None

    # -- serving an upgrade (called on the HTTP handler thread, which it keeps until the end)

    def serve(self, handler: Any) -> None:
        handler.close_connection = True
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(handler.path).query)
        try:
            header = json.loads(base64.b64decode(query.get("header", [""])[0], validate=True) or b"{}")
            if not isinstance(header, dict):
                raise ValueError
        except ValueError:
            handler.send_error(400, "the header query parameter must be base64 JSON")
            return
        protocol = ServerProtocol(subprotocols=[SUBPROTOCOL], max_size=MAX_CLIENT_MESSAGE)
        # http.server has read the request already: hand its bytes to the protocol's parser, which
        # must see the request before any frame.
        raw = f"GET {handler.path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in handler.headers.items())
        protocol.receive_data((raw + "\r\n").encode("latin-1"))
        requests = [e for e in protocol.events_received() if isinstance(e, Request)]
        if not requests:
            handler.send_error(400, "not a WebSocket upgrade request")
            return
        response = protocol.accept(requests[0])
        if response.status_code == 101 and response.headers.get("Sec-WebSocket-Protocol") != SUBPROTOCOL:
            response = protocol.reject(400, "the graphql-ws subprotocol is required\n")
        protocol.send_response(response)
        sock = handler.connection
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(b"".join(protocol.data_to_send()))
        if response.status_code != 101:
            return
        connection = Connection(self, sock, protocol, header)
        with self.lock:
            self.connections.add(connection)
        try:
            connection.run()
        finally:
            with self.lock:
                self.connections.discard(connection)

    def drop_all(self) -> int:
        with self.lock:
            connections = list(self.connections)
        for connection in connections:
            connection.drop()
        return len(connections)

    def connection_count(self) -> int:
        with self.lock:
            return len(self.connections)

    def active(self) -> list[dict]:
        with self.lock:
            connections = list(self.connections)
        found = []
        for connection in connections:
            with connection.lock:
                for registration in connection.registrations.values():
                    mode = registration.identity.mode if registration.identity is not None else None
                    found.append({"id": registration.id, "field": registration.field_name,
                                  "arguments": registration.arguments, "connection": id(connection),
                                  "mode": mode})
        return found

    # -- subscriptions

    def prepare(self, sub_id: str, query: str, variables: dict, operation_name: str | None,
                identity: Any = None) -> tuple[Registration | None, list]:
        """Parses and validates a subscription document; returns its registration or AppSync errors."""
        document = self.api.validated_documents.get(query)
        if document is None:
            try:
                document = parse(query)
            except GraphQLError as error:
                return None, [self.format_error(error, "ValidationError")]
            errors = validate(self.api.schema, document)
            if errors:
                return None, [self.format_error(e, "ValidationError") for e in errors]
            self.api.remember(query, document)
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        if operation_name is not None:
            operations = [d for d in operations if d.name and d.name.value == operation_name]
        if len(operations) != 1 or operations[0].operation != OperationType.SUBSCRIPTION:
            return None, [{"errorType": "ValidationError", "message": "The document must hold one subscription operation."}]
        operation = operations[0]
        fields = [s for s in operation.selection_set.selections if isinstance(s, FieldNode)]
        root = self.api.schema.subscription_type
        field_name = fields[0].name.value
        try:
            coerced = get_variable_values(self.api.schema, operation.variable_definitions or [], variables)
            if isinstance(coerced, list):
                return None, [self.format_error(e, "ValidationError") for e in coerced]
            arguments = get_argument_values(root.fields[field_name], fields[0], coerced)
        except GraphQLError as error:
            return None, [self.format_error(error, "ValidationError")]
        if identity is not None and self.authorizer is not None and not self.authorizer.allows(
                identity, auth.mode_rules(root.fields[field_name].ast_node), f"{root.name}.{field_name}"):
            return None, [{"errorType": "Unauthorized",
                           "message": f"Not Authorized to access {field_name} on type {root.name}"}]
        if identity is not None and self.authorizer is not None:
            refusal = self.authorizer.subscription_refusal(self.api, field_name, arguments, identity)
            if refusal is not None:
                return None, [{"errorType": "Unauthorized", "message": refusal}]
        name = operation.name.value if operation.name else None
        return Registration(sub_id, document, field_name, arguments, variables, name, identity), []

    def publish(self, mutation_field: str, record: dict) -> None:
        """Queues a successful mutation's record for the subscriptions that follow the mutation."""
        self.events.put((mutation_field, dict(record)))

    def _publisher(self) -> None:
        while True:
            mutation_field, record = self.events.get()
            with self.lock:
                connections = list(self.connections)
            for connection in connections:
                with connection.lock:
                    registrations = list(connection.registrations.values())
                for registration in registrations:
                    if mutation_field not in self.triggers.get(registration.field_name, []):
                        continue
                    if not self._selects(registration, record, self.matches):
                        continue
                    if registration.identity is not None and self.authorizer is not None and \
                            not self.authorizer.subscription_delivers(self.api, registration.field_name,
                                                                      registration.identity, record):
                        continue
                    result = execute(self.api.schema, registration.document, root_value={registration.field_name: record},
                                     context_value={"identity": registration.identity},
                                     variable_values=registration.variables, operation_name=registration.operation_name)
                    payload: dict[str, Any] = {"data": result.data}
                    if result.errors:
                        payload["errors"] = [self.format_error(e, "GraphQLError") for e in result.errors]
                    connection.send({"type": "data", "id": registration.id, "payload": payload})

    @staticmethod
    def _selects(registration: Registration, record: dict, matches: Callable) -> bool:
        for name, value in registration.arguments.items():
            if name == "filter":
                if value and not matches(record, value):
                    return False
            elif value is not None and value not in (record.get(name), auth.presented_owner(record.get(name))):
                # An owner argument matches the stored owner or, as AppSync compares it with the
                # mutation's response, its presented form (`<sub>::<username>` reads as the username).
                return False
        return True
