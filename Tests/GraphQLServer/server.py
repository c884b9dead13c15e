#!/usr/bin/env python3
"""Local AppSync-compatible GraphQL server for modelgen's tests and local development.

Usage:
    python3 server.py --schema schema.api.graphql --port 0 --db data.sqlite [--api-key KEY]
    python3 server.py --schema schema.api.graphql --check

It loads the API schema that `modelgen generate --emit api-schema` writes, serves
`POST /graphql` on 127.0.0.1 only, and prints exactly one line `LISTENING <port>` on
stdout once it accepts connections. Every document is parsed and validated against the
schema (graphql-core) before anything runs; invalid documents get GraphQL `errors` with
HTTP 200, as AppSync answers. Model data lives in SQLite (one row per record, the record
as JSON), so the server is generic over every schema the emitter produces.

The emitted schema is the deployable one: it declares none of AppSync's built-in scalars and
directives, so the server declares those it lacks (APPSYNC_BUILTINS) before graphql-core builds it.
What the server needs besides (models, primary keys, indexes, operation kinds, relations, defaults,
timestamps and the @auth rules) comes from the manifest the same `modelgen` run writes beside it
(`schema.local.json`; `X.api.graphql` -> `X.local.json`; or `--manifest FILE`), version 1, see
APILocalManifest in Sources/ModelGenAPISchema. A hand-written schema without a manifest may still
carry the older `@modelgen*` directives (declared in the document):
  @modelgenModel(primaryKey:, createdAt:, updatedAt:)        on model object types
  @modelgenIndex(name:, fields:)                             on model object types
  @modelgenOperation(model:, kind:, index:)                  on Query / Mutation fields
  @modelgenRelation(kind:, model:, fields:, relatedFields:, index:) on relation fields

Test hooks (request headers) are documented in README.md: x-test-delay-ms, x-test-fail.
"""

from __future__ import annotations

import argparse
import base64
import datetime
import hashlib
import ipaddress
import json
import re
import sqlite3
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from graphql import (
    GraphQLError,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    GraphQLSchema,
    OperationDefinitionNode,
    OperationType,
    assert_valid_schema,
    build_schema,
    execute,
    parse,
    validate,
)
from graphql.language import ast as gql_ast
from graphql.utilities import value_from_ast_untyped

import auth  # noqa: E402 (this folder: the authorization modes, kept apart from the server)
import realtime  # the real-time (subscription) WebSocket endpoint
import versioned  # the versioned data source (conflict detection, sync queries) of models whose manifest entry names a conflictHandler (or, hand-written, @modelgenSync)

DEFAULT_LIMIT = 100
MAX_DELAY_MS = 60_000
MAGIC_FAIL_VALUE = "__modelgen_fail__"


# ---------------------------------------------------------------------------
# Errors


class AppSyncError(Exception):
    """An error a resolver raises; rendered with AppSync's `errorType`."""

    def __init__(self, message: str, error_type: str, data: Any = None) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.data = data  # AppSync's error `data` (ConflictUnhandled: the server's current item)


def _identity(info: Any) -> Any:
    """The caller of the operation `info` resolves (auth.Identity), or None without --auth-config."""
    return info.context.get("identity") if isinstance(info.context, dict) else None


def conditional_check_failed() -> AppSyncError:
    return AppSyncError("The conditional request failed", "DynamoDB:ConditionalCheckFailedException")


# ---------------------------------------------------------------------------
# AWS scalars (AppSync's formats; lenient where AppSync is lenient)

_OFFSET = r"(Z|[+-]\d{2}:\d{2}(:\d{2})?)"
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}" + _OFFSET + r"?$")
_TIME_RE = re.compile(r"^\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?" + _OFFSET + r"?$")
_DATETIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?" + _OFFSET + r"$")
_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+$")  # RFC 822 local-part@domain-part (AppSync "Scalar types")
_URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://\S+$")
_PHONE_RE = re.compile(r"^\+?[0-9 ()-]{3,}$")


def _string_checker(name: str, ok: Callable[[str], bool]) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if not isinstance(value, str) or not ok(value):
            raise GraphQLError(f"Invalid {name} value: {json.dumps(value)}")
        return value

    return check


def _is_ip(value: str) -> bool:
    try:
        ipaddress.ip_network(value, strict=False)
        return True
    except ValueError:
        return False


def _is_json(value: str) -> bool:
    try:
        json.loads(value)
        return True
    except ValueError:
        return False


def _timestamp(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GraphQLError(f"Invalid AWSTimestamp value: {json.dumps(value)}")
    return value


SCALAR_CHECKS: dict[str, Callable[[Any], Any]] = {
    "AWSDate": _string_checker("AWSDate", lambda v: bool(_DATE_RE.match(v))),
    "AWSTime": _string_checker("AWSTime", lambda v: bool(_TIME_RE.match(v))),
    "AWSDateTime": _string_checker("AWSDateTime", lambda v: bool(_DATETIME_RE.match(v))),
    "AWSTimestamp": _timestamp,
    "AWSEmail": _string_checker("AWSEmail", lambda v: bool(_EMAIL_RE.match(v))),
    "AWSJSON": _string_checker("AWSJSON", _is_json),
    "AWSURL": _string_checker("AWSURL", lambda v: bool(_URL_RE.match(v))),
    "AWSPhone": _string_checker("AWSPhone", lambda v: bool(_PHONE_RE.match(v))),
    "AWSIPAddress": _string_checker("AWSIPAddress", _is_ip),
}


def install_scalar_checks(schema: GraphQLSchema) -> None:
    for name, check in SCALAR_CHECKS.items():
        scalar = schema.type_map.get(name)
        if not isinstance(scalar, GraphQLScalarType):
            continue

        def parse_literal(node: gql_ast.ValueNode, variables: Any = None, _check: Callable = check) -> Any:
            return _check(value_from_ast_untyped(node, variables))

        scalar.parse_value = check  # type: ignore[method-assign]
        scalar.parse_literal = parse_literal  # type: ignore[method-assign]


# ---------------------------------------------------------------------------
# AppSync's built-ins, which a deployable schema uses without declaring (AppSync developer guide,
# "Scalar types" and "Configuring authorization"; `@aws_subscribe(mutations: [String!]!)`).

APPSYNC_BUILTINS = {
    **{f"scalar {name}": f"scalar {name}" for name in (
        "AWSDate", "AWSTime", "AWSDateTime", "AWSTimestamp", "AWSEmail", "AWSJSON", "AWSURL",
        "AWSPhone", "AWSIPAddress")},
    "directive @aws_subscribe": "directive @aws_subscribe(mutations: [String!]!) on FIELD_DEFINITION",
    "directive @aws_api_key": "directive @aws_api_key on OBJECT | FIELD_DEFINITION",
    "directive @aws_iam": "directive @aws_iam on OBJECT | FIELD_DEFINITION",
    "directive @aws_oidc": "directive @aws_oidc on OBJECT | FIELD_DEFINITION",
    "directive @aws_cognito_user_pools":
        "directive @aws_cognito_user_pools(cognito_groups: [String]) on OBJECT | FIELD_DEFINITION",
    "directive @aws_lambda": "directive @aws_lambda on OBJECT | FIELD_DEFINITION",
}


def with_appsync_builtins(sdl: str) -> str:
    """`sdl` with the AppSync scalars and directives it does not declare itself prepended."""
    missing = [declaration for head, declaration in APPSYNC_BUILTINS.items()
               if not re.search(r"(?m)^\s*" + re.escape(head) + r"\b", sdl)]
    return "\n".join(missing) + "\n\n" + sdl if missing else sdl


MANIFEST_VERSION = 1


def manifest_path_for(schema_path: str) -> str:
    """The manifest `modelgen` writes beside a schema: `schema.api.graphql` -> `schema.local.json`."""
    base = schema_path[: -len(".api.graphql")] if schema_path.endswith(".api.graphql") else schema_path.rsplit(".", 1)[0]
    return base + ".local.json"


def load_manifest(path: str) -> dict:
    """Reads a manifest: a regular file (a FIFO or device would block) holding a version 1 object."""
    import os
    import stat

    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise AppSyncError("not a regular file", "SchemaError")
        with os.fdopen(descriptor, encoding="utf-8", closefd=False) as file:
            manifest = json.load(file)
    finally:
        os.close(descriptor)
    version = manifest.get("version") if isinstance(manifest, dict) else None
    if type(version) is not int or version != MANIFEST_VERSION:  # `True == 1` in Python: not a version
        raise AppSyncError(f"not a version {MANIFEST_VERSION} modelgen manifest", "SchemaError")
    return manifest


MANIFEST_OPERATION_KINDS = {
    "Query": {"GET", "LIST", "SYNC", "INDEX"},
    "Mutation": {"CREATE", "UPDATE", "DELETE"},
    "Subscription": {"ON_CREATE", "ON_UPDATE", "ON_DELETE"},
}
MANIFEST_RELATION_KINDS = {"BELONGS_TO", "HAS_ONE", "HAS_MANY"}


def validate_manifest(manifest: dict, schema: GraphQLSchema) -> None:
    """Checks a manifest's shape and every name it uses against the schema it is served with.

    Raises AppSyncError("manifest: <where>: <what>", "SchemaError") for the first fault: a wrong JSON
    type, a model, field, index, operation or relation the schema (or the manifest) lacks, an unknown
    kind. A stale manifest (the schema was regenerated, the manifest was not) fails here.
    """
    def fail(where: str, what: str) -> None:
        raise AppSyncError(f"manifest: {where}: {what}", "SchemaError")

    def strings(value: Any, where: str, minimum: int = 0) -> list[str]:
        if not isinstance(value, list) or len(value) < minimum or not all(isinstance(v, str) for v in value):
            fail(where, f"expected a list of {'at least one ' if minimum else ''}field names")
        return value

    def obj(value: Any, where: str) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            fail(where, "expected an object")
        return value

    models = obj(manifest.get("models"), "models")
    types: dict[str, Any] = {}
    for name, entry in models.items():
        type_ = schema.type_map.get(name)
        if not isinstance(type_, GraphQLObjectType):
            fail(f"models.{name}", "the schema has no such object type")
        entry = obj(entry, f"models.{name}")
        types[name] = type_

        def field(field_name: Any, where: str) -> None:
            if not isinstance(field_name, str) or field_name not in type_.fields:
                fail(where, f"{name} has no field {field_name!r}")

        for position, key in enumerate(strings(entry.get("primaryKey"), f"models.{name}.primaryKey", 1)):
            field(key, f"models.{name}.primaryKey[{position}]")
        for role, field_name in obj(entry.get("timestamps"), f"models.{name}.timestamps").items():
            if field_name is not None:
                field(field_name, f"models.{name}.timestamps.{role}")
        for index, fields in obj(entry.get("indexes"), f"models.{name}.indexes").items():
            for position, key in enumerate(strings(fields, f"models.{name}.indexes.{index}", 1)):
                field(key, f"models.{name}.indexes.{index}[{position}]")
        for field_name, written in obj(entry.get("defaults"), f"models.{name}.defaults").items():
            field(field_name, f"models.{name}.defaults")
            if not isinstance(written, str):
                fail(f"models.{name}.defaults.{field_name}", "expected the @default value as written (a string)")
        for field_name in obj(entry.get("fieldAuthRules"), f"models.{name}.fieldAuthRules"):
            field(field_name, f"models.{name}.fieldAuthRules")
        handler = entry.get("conflictHandler")
        if handler is not None and not isinstance(handler, str):
            fail(f"models.{name}.conflictHandler", "expected a string")
    for name, entry in models.items():
        for field_name, relation in obj(entry.get("relations"), f"models.{name}.relations").items():
            where = f"models.{name}.relations.{field_name}"
            relation = obj(relation, where)
            if field_name not in types[name].fields:
                fail(where, f"{name} has no field {field_name!r}")
            if relation.get("kind") not in MANIFEST_RELATION_KINDS:
                fail(where, f"unknown kind {relation.get('kind')!r}")
            related = relation.get("model")
            if related not in types:
                fail(where, f"the manifest has no model {related!r}")
            for key in strings(relation.get("fields"), f"{where}.fields"):
                if key not in types[name].fields:
                    fail(f"{where}.fields", f"{name} has no field {key!r}")
            for key in strings(relation.get("relatedFields"), f"{where}.relatedFields"):
                if key not in types[related].fields:
                    fail(f"{where}.relatedFields", f"{related} has no field {key!r}")
            index = relation.get("index")
            if index is not None and index not in obj(models[related].get("indexes"), where):
                fail(f"{where}.index", f"{related} has no index {index!r}")
    roots = {"Query": schema.query_type, "Mutation": schema.mutation_type, "Subscription": schema.subscription_type}
    for root_name, fields in obj(manifest.get("operations"), "operations").items():
        root = roots.get(root_name)
        if root_name not in MANIFEST_OPERATION_KINDS:
            fail(f"operations.{root_name}", "expected Query, Mutation or Subscription")
        for field_name, spec in obj(fields, f"operations.{root_name}").items():
            where = f"operations.{root_name}.{field_name}"
            if root is None or field_name not in root.fields:
                fail(where, "the schema has no such root field")
            spec = obj(spec, where)
            if spec.get("model") not in types:
                fail(where, f"the manifest has no model {spec.get('model')!r}")
            kind = spec.get("kind")
            if kind not in MANIFEST_OPERATION_KINDS[root_name]:
                fail(where, f"unknown {root_name} kind {kind!r}")
            if kind == "INDEX" and spec.get("index") not in obj(models[spec["model"]].get("indexes"), where):
                fail(where, f"{spec['model']} has no index {spec.get('index')!r}")


# ---------------------------------------------------------------------------
# Schema metadata: from the manifest, else from the @modelgen* directives


def _directive_args(node: Any, name: str) -> list[dict[str, Any]]:
    found = []
    for directive in getattr(node, "directives", None) or []:
        if directive.name.value == name:
            found.append({arg.name.value: value_from_ast_untyped(arg.value) for arg in directive.arguments})
    return found


class ModelInfo:
    def __init__(self, name: str, primary_key: list[str], created_at: str | None, updated_at: str | None) -> None:
        self.name = name
        self.primary_key = primary_key
        self.created_at = created_at
        self.updated_at = updated_at
        self.indexes: dict[str, list[str]] = {}
        self.defaults: dict[str, Any] = {}  # field name -> @default value, typed
        self.conflict_handler: str | None = None  # manifest conflictHandler / @modelgenSync: a versioned data source (versioned.py)
        self.field_types: dict[str, str] = {}  # field name -> named GraphQL type (unwrapped)


def _parse_default(written: str, type_: Any) -> Any:
    """A `@default(value:)` string as the field's type (Amplify writes every default as a string)."""
    name = getattr(type_, "name", "")
    if name in ("Int", "AWSTimestamp"):
        return int(written)
    if name == "Float":
        return float(written)
    if name == "Boolean":
        return written == "true"
    return written


def _named_type(type_: Any) -> Any:
    while isinstance(type_, (GraphQLNonNull, GraphQLList)):
        type_ = type_.of_type
    return type_


def _sort_key_argument(fields: list[str]) -> str | None:
    """The argument name the transformer gives a sort key: the field, or the camel-cased join."""
    sort_fields = fields[1:]
    if not sort_fields:
        return None
    if len(sort_fields) == 1:
        return sort_fields[0]
    return sort_fields[0] + "".join(f[:1].upper() + f[1:] for f in sort_fields[1:])


# ---------------------------------------------------------------------------
# Values: ordering, filters and key conditions


def _rank(value: Any) -> tuple:
    if value is None:
        return (0, 0)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, (int, float)):
        return (2, value)
    if isinstance(value, str):
        return (3, value)
    return (4, json.dumps(value, sort_keys=True))


def _compare(op: str, actual: Any, expected: Any) -> bool:
    if actual is None or expected is None:
        return False
    try:
        if op == "lt":
            return actual < expected
        if op == "le":
            return actual <= expected
        if op == "gt":
            return actual > expected
        if op == "ge":
            return actual >= expected
    except TypeError:
        return False
    raise ValueError(op)


def _attribute_type(value: Any) -> str:
    if value is None:
        return "_null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    return "map"


def _size(value: Any) -> int | None:
    if isinstance(value, (str, list, dict)):
        return len(value)
    return None


def _field_condition(record: dict, field: str, condition: dict) -> bool:
    present = field in record and record[field] is not None
    actual = record.get(field)
    for op, expected in condition.items():
        if expected is None and op not in ("eq", "ne"):
            continue
        if op == "eq":
            ok = actual == expected
        elif op == "ne":
            ok = actual != expected
        elif op in ("lt", "le", "gt", "ge"):
            ok = _compare(op, actual, expected)
        elif op == "between":
            ok = len(expected) == 2 and _compare("ge", actual, expected[0]) and _compare("le", actual, expected[1])
        elif op == "beginsWith":
            ok = isinstance(actual, str) and actual.startswith(expected)
        elif op == "contains":
            ok = (isinstance(actual, str) and isinstance(expected, str) and expected in actual) or (
                isinstance(actual, list) and expected in actual
            )
        elif op == "notContains":
            ok = not ((isinstance(actual, str) and isinstance(expected, str) and expected in actual) or (
                isinstance(actual, list) and expected in actual
            ))
        elif op == "attributeExists":
            ok = present == bool(expected)
        elif op == "attributeType":
            ok = present and _attribute_type(actual) == expected
        elif op == "size":
            size = _size(actual)
            ok = size is not None and _field_condition({"s": size}, "s", expected)
        elif op == "in":
            ok = actual in expected
        elif op == "notIn":
            ok = actual not in expected
        else:
            raise AppSyncError(f"Unsupported filter operator '{op}'", "InvalidFilterError")
        if not ok:
            return False
    return True


def matches(record: dict, expression: dict | None) -> bool:
    """Evaluates a Model<X>FilterInput / Model<X>ConditionInput value against a record."""
    if not expression:
        return True
    for key, value in expression.items():
        if value is None:
            continue
        if key == "and":
            if not all(matches(record, sub) for sub in value if sub is not None):
                return False
        elif key == "or":
            subs = [sub for sub in value if sub is not None]
            if subs and not any(matches(record, sub) for sub in subs):
                return False
        elif key == "not":
            if matches(record, value):
                return False
        elif not _field_condition(record, key, value):
            return False
    return True


def key_condition_matches(record: dict, sort_fields: list[str], condition: dict | None) -> bool:
    """Evaluates a Model<Type>KeyConditionInput (one sort key field) or a composite one (see
    `_composite_condition`; `validate_composite_key_condition` checks its arguments first)."""
    if not condition:
        return True
    for op, expected in condition.items():
        if expected is None:
            continue
        if len(sort_fields) == 1:
            actual = record.get(sort_fields[0])
            if op == "eq":
                ok = actual == expected
            elif op == "beginsWith":
                ok = isinstance(actual, str) and actual.startswith(expected)
            elif op == "between":
                ok = _compare("ge", actual, expected[0]) and _compare("le", actual, expected[1])
            else:
                ok = _compare(op, actual, expected)
        else:
            ok = _composite_condition(record, sort_fields, op, expected)
        if not ok:
            return False
    return True


_COMPOSITE_SEPARATOR = "#"


def _key_text(value: Any) -> str:
    """A key value as the resolver's template interpolates it into the composite key."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)


def composite_sort_key(record: dict, sort_fields: list[str]) -> str:
    """The stored composite sort key attribute (`year#title`): every sort key field's value as
    text, joined by "#", as the transformer's mutation resolvers write it."""
    return _COMPOSITE_SEPARATOR.join(_key_text(record.get(name)) for name in sort_fields)


def _joined_operand(sort_fields: list[str], operand: dict) -> str:
    """The text the resolver compares with the stored key: the given fields' values left to right,
    joined by "#" (`{year: 1974}` is "1974", `{year: 1974, title: "A"}` is "1974#A")."""
    joined = ""
    for index, name in enumerate(sort_fields):
        if operand.get(name) is not None:
            text = _key_text(operand[name])
            joined = text if index == 0 else joined + _COMPOSITE_SEPARATOR + text
    return joined


def _composite_condition(record: dict, sort_fields: list[str], op: str, expected: Any) -> bool:
    """As the transformer's resolver (`applyCompositeKeyConditionExpression` of
    graphql-transformer-common, used by the @primaryKey and @index query resolvers): every operator
    compares the stored composite key with the operand's given values joined by "#", as DynamoDB
    compares an `S` attribute (text, so 10 < 9 and a partial `eq` matches only a key whose later
    fields are all unset): `eq` is `=`, `lt le gt ge` are `< <= > >=`, `between` is `BETWEEN`
    (both ends included), `beginsWith` is `begins_with`."""
    stored = composite_sort_key(record, sort_fields)
    if op == "between":
        return _joined_operand(sort_fields, expected[0]) <= stored <= _joined_operand(sort_fields, expected[1])
    wanted = _joined_operand(sort_fields, expected)
    if op == "beginsWith":
        return stored.startswith(wanted)
    if op == "eq":
        return stored == wanted
    if op == "lt":
        return stored < wanted
    if op == "le":
        return stored <= wanted
    if op == "gt":
        return stored > wanted
    if op == "ge":
        return stored >= wanted
    raise AppSyncError(f"Unsupported key condition operator '{op}'", "InvalidArgumentsError")


def _null_or_blank(value: Any) -> bool:
    """VTL's `$util.isNullOrBlank`: null, or a string of only whitespace."""
    return value is None or (isinstance(value, str) and value.strip() == "")


def validate_key_arguments(key_fields: list[str], args: dict) -> None:
    """The argument checks of the transformer's key query resolvers (graphql-transformer-common):
    `validateKeyArguments` for one sort key field, `validateCompositeKeyArguments` for several.
    Each failure is an `InvalidArgumentsError` with the resolver's message."""
    sort_fields = key_fields[1:]
    argument = _sort_key_argument(key_fields)
    if argument is None:
        return
    hash_key = key_fields[0]
    if len(sort_fields) == 1:
        if args.get(argument) is not None and args.get(hash_key) is None:
            raise AppSyncError(
                f"When providing argument '{argument}' you must also provide arguments {hash_key}",
                "InvalidArgumentsError")
        return
    condition = args.get(argument)
    if condition is not None and _null_or_blank(args.get(hash_key)):
        raise AppSyncError(f"When providing argument '{argument}' you must also provide '{hash_key}'.",
                           "InvalidArgumentsError")
    if condition is None:
        return
    if len(condition) > 1:
        raise AppSyncError(f"Argument {argument} must specify at most one key condition operation.",
                           "InvalidArgumentsError")

    def gaps(operand: dict, path: str) -> None:
        for index in range(len(sort_fields) - 1, 0, -1):
            right, previous = sort_fields[index], sort_fields[index - 1]
            if not _null_or_blank(operand.get(right)) and _null_or_blank(operand.get(previous)):
                raise AppSyncError(f"When providing argument '{path}.{right}' you must also provide '{path}.{previous}'.",
                                   "InvalidArgumentsError")

    for operation, operand in condition.items():
        if operation == "between":
            if operand is None or len(operand) != 2:
                raise AppSyncError(f"Argument '{argument}.between' expects exactly two elements.", "InvalidArgumentsError")
            gaps(operand[0] or {}, f"{argument}.between[0]")
            gaps(operand[1] or {}, f"{argument}.between[1]")
        else:
            gaps(operand or {}, f"{argument}.{operation}")


# ---------------------------------------------------------------------------
# Paging tokens


def encode_token(last_key: list, fingerprint: str) -> str:
    """An opaque token holding the ordering key of the last item returned (like DynamoDB's
    ExclusiveStartKey), bound to the query it came from."""
    raw = json.dumps({"k": last_key, "f": fingerprint}, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_token(token: str, fingerprint: str) -> list:
    try:
        padded = token + "=" * (-len(token) % 4)
        payload = json.loads(base64.urlsafe_b64decode(padded.encode()))
        last_key = payload["k"]
        if payload["f"] != fingerprint or not isinstance(last_key, list):
            raise ValueError
        return last_key
    except (ValueError, KeyError, TypeError):
        raise AppSyncError("Invalid nextToken", "InvalidNextTokenException") from None


def fingerprint(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _order_rank(record: dict, entry: str | tuple) -> tuple:
    """The rank of one entry of a query's order: a field, or a composite sort key (a tuple of
    fields), which orders as its stored text (DynamoDB orders an `S` sort key by its UTF-8 bytes,
    which is code point order: "1974#B" < "1985#A", "10#" < "9#")."""
    if isinstance(entry, tuple):
        return _rank(composite_sort_key(record, list(entry)))
    return _rank(record.get(entry))


def ordering_key(record: dict, fields: list) -> list:
    """The record's position in a query's order: the ranks of its key fields (JSON round-trippable)."""
    return [list(_order_rank(record, entry)) for entry in fields]


def page(records: list[dict], args: dict, query_id: Any, order: list[str], descending: bool) -> dict:
    """One page of `records` (sorted by `order`, which ends with the primary key, so keys are unique).

    A page starts after the token's key, so records written or deleted between pages neither repeat
    nor shift the rest."""
    limit = args.get("limit")
    if limit is None:
        limit = DEFAULT_LIMIT
    if limit < 1:
        raise AppSyncError("limit must be at least 1", "InvalidArgumentsError")
    stamp = fingerprint(query_id, {k: v for k, v in args.items() if k not in ("limit", "nextToken")})
    start = 0
    if args.get("nextToken"):
        after = decode_token(args["nextToken"], stamp)
        while start < len(records):
            key = ordering_key(records[start], order)
            if (key < after) if descending else (key > after):
                break
            start += 1
    items = records[start:start + limit]
    end = start + len(items)
    token = encode_token(ordering_key(items[-1], order), stamp) if items and end < len(records) else None
    return {"items": items, "nextToken": token}


# ---------------------------------------------------------------------------
# Storage


class Store:
    """SQLite storage: one row per record, keyed by (model, JSON array of key values)."""

    def __init__(self, path: str) -> None:
        self.connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.connection.execute("PRAGMA journal_mode=WAL")
        # A test server: no fsync per commit (WAL stays consistent, only durability across a power cut is lost).
        self.connection.execute("PRAGMA synchronous=NORMAL")
        self.connection.execute(
            "CREATE TABLE IF NOT EXISTS records ("
            " model TEXT NOT NULL, key TEXT NOT NULL, data TEXT NOT NULL,"
            " PRIMARY KEY (model, key)) WITHOUT ROWID"
        )

    @staticmethod
    def key(values: list[Any]) -> str:
        return json.dumps(values, separators=(",", ":"), ensure_ascii=False)

    def get(self, model: str, key: list[Any]) -> dict | None:
        row = self.connection.execute(
            "SELECT data FROM records WHERE model = ? AND key = ?", (model, self.key(key))
        ).fetchone()
        return json.loads(row[0]) if row else None

    def all(self, model: str) -> list[dict]:
        rows = self.connection.execute("SELECT data FROM records WHERE model = ?", (model,)).fetchall()
        return [json.loads(row[0]) for row in rows]

    def put(self, model: str, key: list[Any], record: dict) -> None:
        self.connection.execute(
            "INSERT OR REPLACE INTO records (model, key, data) VALUES (?, ?, ?)",
            (model, self.key(key), json.dumps(record, ensure_ascii=False)),
        )

    def delete(self, model: str, key: list[Any]) -> None:
        self.connection.execute("DELETE FROM records WHERE model = ? AND key = ?", (model, self.key(key)))

    def reset(self) -> None:
        self.connection.execute("DELETE FROM records")


def now_iso() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# ---------------------------------------------------------------------------
# The API: schema + resolvers


class API:
    def __init__(self, sdl: str, store: Store, manifest: dict | None = None,
                 tombstone_ttl_ms: int = versioned.DEFAULT_TOMBSTONE_TTL_MS,
                 delta_ttl_ms: int = versioned.DEFAULT_DELTA_TTL_MS) -> None:
        self.manifest = manifest
        self.schema = build_schema(with_appsync_builtins(sdl))
        assert_valid_schema(self.schema)  # GraphQL spec §3 type system rules (raises TypeError)
        install_scalar_checks(self.schema)
        self.store = store
        self.models: dict[str, ModelInfo] = {}
        # Documents that parsed and validated, by their text (clients resend the same few documents).
        self.validated_documents: dict[str, Any] = {}
        self._read_models()
        handlers = {m.name: m.conflict_handler for m in self.models.values() if m.conflict_handler}
        self.versioned = versioned.VersionedSource(
            store, handlers, {name: self.models[name].primary_key for name in handlers},
            tombstone_ttl_ms, delta_ttl_ms) if handlers else None
        self._install_resolvers()

    def remember(self, text: str, document: Any) -> None:
        with self.lock:
            if len(self.validated_documents) >= 512:
                self.validated_documents.clear()
            self.validated_documents[text] = document

    # -- metadata

    def _read_models(self) -> None:
        if self.manifest is not None:
            self._read_manifest_models()
            return
        for name, type_ in self.schema.type_map.items():
            if not isinstance(type_, GraphQLObjectType) or type_.ast_node is None:
                continue
            found = _directive_args(type_.ast_node, "modelgenModel")
            if not found:
                continue
            args = found[0]
            info = ModelInfo(name, list(args["primaryKey"]), args.get("createdAt"), args.get("updatedAt"))
            for index in _directive_args(type_.ast_node, "modelgenIndex"):
                info.indexes[index["name"]] = list(index["fields"])
            for sync in _directive_args(type_.ast_node, "modelgenSync"):
                info.conflict_handler = sync["conflictHandler"]
            for field_name, field in type_.fields.items():
                info.field_types[field_name] = _named_type(field.type).name
                default = _directive_args(field.ast_node, "modelgenDefault")
                if default:
                    info.defaults[field_name] = _parse_default(default[0]["value"], _named_type(field.type))
            self.models[name] = info

    def _read_manifest_models(self) -> None:
        validate_manifest(self.manifest, self.schema)
        for name, entry in (self.manifest.get("models") or {}).items():
            type_ = self.schema.type_map.get(name)
            if not isinstance(type_, GraphQLObjectType):
                raise AppSyncError(f"The manifest names model '{name}', which the schema lacks", "SchemaError")
            timestamps = entry.get("timestamps") or {}
            info = ModelInfo(name, list(entry["primaryKey"]), timestamps.get("createdAt"), timestamps.get("updatedAt"))
            info.indexes = {index: list(fields) for index, fields in (entry.get("indexes") or {}).items()}
            info.conflict_handler = entry.get("conflictHandler")  # a versioned data source (versioned.py)
            for field_name, field in type_.fields.items():
                info.field_types[field_name] = _named_type(field.type).name
            for field_name, written in (entry.get("defaults") or {}).items():
                field = type_.fields.get(field_name)
                info.defaults[field_name] = _parse_default(written, _named_type(field.type) if field else None)
            self.models[name] = info

    def operation_spec(self, root: str, field_name: str) -> dict | None:
        """The model operation a root field is ({"model", "kind", "index"}), or None."""
        if self.manifest is not None:
            return ((self.manifest.get("operations") or {}).get(root) or {}).get(field_name)
        root_type = {"Query": self.schema.query_type, "Mutation": self.schema.mutation_type}.get(root)
        field = root_type.fields.get(field_name) if root_type else None
        found = _directive_args(field.ast_node, "modelgenOperation") if field is not None else []
        return found[0] if found else None

    def relation_spec(self, type_name: str, field_name: str, field: Any) -> dict | None:
        """What a relation field reads ({"kind", "model", "fields", "relatedFields", "index"}), or None."""
        if self.manifest is not None:
            entry = (self.manifest.get("models") or {}).get(type_name) or {}
            return (entry.get("relations") or {}).get(field_name)
        found = _directive_args(field.ast_node, "modelgenRelation") if field.ast_node is not None else []
        return found[0] if found else None

    def _model(self, name: str) -> ModelInfo:
        model = self.models.get(name)
        if model is None:
            source = "the manifest" if self.manifest is not None else "a @modelgen directive"
            raise AppSyncError(f"Unknown model '{name}' named by {source}", "SchemaError")
        return model

    def _install_resolvers(self) -> None:
        for root in (self.schema.query_type, self.schema.mutation_type):
            if root is None:
                continue
            for field_name, field in root.fields.items():
                spec = self.operation_spec(root.name, field_name)
                if spec:
                    field.resolve = self._operation_resolver(spec)
        for type_name, type_ in self.schema.type_map.items():
            if not isinstance(type_, GraphQLObjectType) or type_name.startswith("__"):
                continue
            if type_ in (self.schema.query_type, self.schema.mutation_type, self.schema.subscription_type):
                continue
            for field_name, field in type_.fields.items():
                if field.ast_node is None:
                    continue
                relation = self.relation_spec(type_name, field_name, field)
                if relation:
                    field.resolve = self._relation_resolver(relation)
                elif _named_type(field.type).name in ("String", "ID"):
                    field.resolve = _magic_value_resolver(field_name)

    # -- queries

    def _key_of(self, model: ModelInfo, values: dict) -> list[Any]:
        key = []
        for name in model.primary_key:
            if values.get(name) is None:
                raise AppSyncError(f"Missing key field '{name}' of model '{model.name}'", "InvalidArgumentsError")
            key.append(self._key_value(model, name, values[name]))
        return key

    @staticmethod
    def _key_value(model: ModelInfo, name: str, value: Any) -> Any:
        """A key value as its field's type: `getTask(id: ID!)` of an `id: Int!` model passes the ID
        "5" (graphql-core coerces IDs to strings), which is the record's 5."""
        if isinstance(value, str) and model.field_types.get(name) in ("Int", "AWSTimestamp"):
            try:
                return int(value)
            except ValueError:
                raise AppSyncError(f"Key field '{name}' of model '{model.name}' is an Int, got {value!r}",
                                   "InvalidArgumentsError") from None
        return value

    def _sorted(self, records: list[dict], fields: list, descending: bool) -> list[dict]:
        return sorted(records, key=lambda r: tuple(_order_rank(r, f) for f in fields), reverse=descending)

    def _query(self, model: ModelInfo, key_fields: list[str], args: dict, partition: dict, query_id: Any) -> dict:
        records = self.store.all(model.name)
        records = [r for r in records if all(r.get(k) == v for k, v in partition.items())]
        sort_fields = key_fields[1:]
        sort_arg = _sort_key_argument(key_fields)
        if sort_arg is not None and args.get(sort_arg) is not None:
            records = [r for r in records if key_condition_matches(r, sort_fields, args[sort_arg])]
        records = [r for r in records if matches(r, args.get("filter"))]
        # A composite sort key orders as its stored text, as DynamoDB orders the `S` attribute the
        # transformer writes (`year#title`); ties (a secondary index) by the primary key.
        key_order: list = key_fields if len(sort_fields) < 2 else [key_fields[0], tuple(sort_fields)]
        order = key_order + [f for f in model.primary_key if f not in key_fields]
        descending = args.get("sortDirection") == "DESC"
        records = self._sorted(records, order, descending)
        return page(records, args, query_id, order, descending)

    def _operation_resolver(self, spec: dict) -> Callable:
        model = self._model(spec["model"])
        kind = spec["kind"]
        index = spec.get("index")

        def resolve(_source: Any, info: Any, **args: Any) -> Any:
            with self.lock:
                if kind == "GET":
                    return self.store.get(model.name, self._key_of(model, args))
                if kind == "LIST":
                    pk = model.primary_key
                    # With @primaryKey the list takes the partition key (and a sort key condition).
                    partition = {pk[0]: self._key_value(model, pk[0], args[pk[0]])} if args.get(pk[0]) is not None else {}
                    if partition == {} and args.get("sortDirection") is not None:
                        raise AppSyncError(
                            f"When providing argument 'sortDirection' you must also provide argument '{pk[0]}'.",
                            "InvalidArgumentsError",
                        )
                    # The transformer's order: sortDirection first, then the key arguments.
                    validate_key_arguments(pk, args)
                    return self._query(model, pk, args, partition, info.field_name)
                if kind == "INDEX":
                    fields = model.indexes.get(index or "")
                    if fields is None:
                        raise AppSyncError(f"Unknown index '{index}' on model '{model.name}'", "SchemaError")
                    validate_key_arguments(fields, args)
                    return self._query(model, fields, args, {fields[0]: args[fields[0]]}, info.field_name)
                if kind == "SYNC":
                    if self.versioned is None or not self.versioned.versioned(model.name):
                        raise AppSyncError(f"Model '{model.name}' has no versioned data source", "SchemaError")
                    try:
                        return self.versioned.sync(model.name, model.primary_key, args, matches, _rank)
                    except versioned.InvalidToken:
                        raise AppSyncError("Invalid nextToken", "InvalidNextTokenException") from None
                    except ValueError as error:
                        raise AppSyncError(str(error), "InvalidArgumentsError") from None
                if kind == "CREATE":
                    return self._published(info.field_name, self._create(model, args["input"], args.get("condition")),
                                           _identity(info))
                if kind == "UPDATE":
                    return self._published(info.field_name, self._update(model, args["input"], args.get("condition")),
                                           _identity(info))
                if kind == "DELETE":
                    return self._published(info.field_name, self._delete(model, args["input"], args.get("condition")),
                                           _identity(info))
                raise AppSyncError(f"Unknown operation kind '{kind}'", "SchemaError")

        return resolve

    # -- mutations (run under self.lock: each is atomic)

    # Called with (mutation field, stored record) after each successful mutation (realtime.py).
    mutation_listeners: list[Callable[[str, dict], None]] = []

    def _published(self, mutation_field: str, record: dict, identity: Any = None) -> dict:
        """The mutation's response record, published to the listeners: a copy of the stored record
        marked `__operation: "Mutation"` (auth.OPERATION_KEY), as the Amplify model transformer's
        mutation resolvers mark theirs, so that field resolvers can tell a mutation's record (and a
        subscription event, which carries it) from a query's (auth.redacted_fields), and carrying
        the mutation's caller (auth.MUTATOR_KEY): AppSync publishes the mutation's response, which
        field rules resolved for that caller, so an event's field is what the caller could read."""
        record = {**record, auth.OPERATION_KEY: "Mutation", auth.MUTATOR_KEY: identity}
        for listener in self.mutation_listeners:
            listener(mutation_field, record)
        return record

    def _create(self, model: ModelInfo, input_: dict, condition: dict | None) -> dict:
        record = dict(input_)
        for name, value in model.defaults.items():
            if record.get(name) is None:
                record[name] = value
        for name in model.primary_key:
            if record.get(name) is None:
                # The service generates a key of type ID, and an `id` of type String (the transformer's
                # `shouldAutogenerateIdField`).
                if model.field_types.get(name) == "ID" or (name == "id" and model.field_types.get(name) == "String"):
                    record[name] = str(uuid.uuid4())
                else:
                    raise AppSyncError(f"Missing key field '{name}' of model '{model.name}'", "InvalidArgumentsError")
        key = self._key_of(model, record)
        if self.store.get(model.name, key) is not None:
            raise conditional_check_failed()
        if condition and not matches({}, condition):
            raise conditional_check_failed()
        stamp = now_iso()
        if model.created_at and record.get(model.created_at) is None:
            record[model.created_at] = stamp
        if model.updated_at and record.get(model.updated_at) is None:
            record[model.updated_at] = stamp
        if model.conflict_handler:
            return self.versioned.create(model.name, key, record)
        self.store.put(model.name, key, record)
        return record

    def _update(self, model: ModelInfo, input_: dict, condition: dict | None) -> dict:
        key = self._key_of(model, input_)
        existing = self.store.get(model.name, key)
        if existing is None or not matches(existing, condition):
            raise conditional_check_failed()
        if model.conflict_handler:
            def stamp(record: dict) -> None:
                if model.updated_at and input_.get(model.updated_at) is None:
                    record[model.updated_at] = now_iso()
            return self._versioned_write(lambda: self.versioned.update(model.name, key, existing, input_, stamp))
        record = dict(existing)
        record.update(input_)
        if model.updated_at and input_.get(model.updated_at) is None:
            record[model.updated_at] = now_iso()
        self.store.put(model.name, key, record)
        return record

    def _delete(self, model: ModelInfo, input_: dict, condition: dict | None) -> dict:
        key = self._key_of(model, input_)
        existing = self.store.get(model.name, key)
        if existing is None or not matches(existing, condition):
            raise conditional_check_failed()
        if model.conflict_handler:
            return self._versioned_write(lambda: self.versioned.delete(model.name, key, existing, input_))
        self.store.delete(model.name, key)
        return existing

    @staticmethod
    def _versioned_write(write: Callable[[], dict]) -> dict:
        """Runs a versioned write; a rejected conflict is AppSync's `ConflictUnhandled` with the item."""
        try:
            return write()
        except versioned.ConflictUnhandled as conflict:
            raise AppSyncError(str(conflict), "ConflictUnhandled", data=conflict.item) from None

    # -- relations

    def _relation_resolver(self, spec: dict) -> Callable:
        kind = spec["kind"]
        related = self._model(spec["model"])
        local_fields = list(spec["fields"])
        related_fields = list(spec["relatedFields"])
        index = spec.get("index")

        def resolve(source: dict, info: Any, **args: Any) -> Any:
            values = [source.get(name) for name in local_fields]
            with self.lock:
                if kind in ("BELONGS_TO", "HAS_ONE"):
                    if any(v is None for v in values):
                        return None
                    if related_fields == related.primary_key:
                        return self.store.get(related.name, values)
                    candidates = [
                        r for r in self.store.all(related.name)
                        if [r.get(f) for f in related_fields] == values
                    ]
                    return self._sorted(candidates, related.primary_key, False)[0] if candidates else None
                if kind == "HAS_MANY":
                    if any(v is None for v in values):
                        return {"items": [], "nextToken": None}
                    key_fields = related.indexes.get(index) if index else None
                    if key_fields is None or key_fields[: len(related_fields)] != related_fields:
                        key_fields = related_fields
                    partition = dict(zip(related_fields, values))
                    query_id = [info.parent_type.name, info.field_name, values]
                    return self._query(related, key_fields, args, partition, query_id)
                raise AppSyncError(f"Unknown relation kind '{kind}'", "SchemaError")

        return resolve

    lock = threading.RLock()


def _magic_value_resolver(field_name: str) -> Callable:
    """Reads a String/ID field; the stored value `__modelgen_fail__` makes the field error (partial data)."""

    def resolve(source: Any, _info: Any, **_args: Any) -> Any:
        value = source.get(field_name) if isinstance(source, dict) else getattr(source, field_name, None)
        if value == MAGIC_FAIL_VALUE:
            raise AppSyncError(f"Injected failure reading field '{field_name}'", "TestInjectedError")
        return value

    return resolve


# ---------------------------------------------------------------------------
# Executing a request


def format_error(error: GraphQLError, default_type: str) -> dict:
    original = error.original_error
    error_type = original.error_type if isinstance(original, (AppSyncError, auth.FieldUnauthorized)) else default_type
    formatted: dict[str, Any] = {"path": error.path, "data": getattr(original, "data", None), "errorType": error_type, "errorInfo": None}
    formatted["locations"] = [{"line": loc.line, "column": loc.column, "sourceName": None} for loc in error.locations or []]
    formatted["message"] = error.message
    return formatted


def run_graphql(api: API, body: Any, context: dict | None = None) -> dict:
    if not isinstance(body, dict) or not isinstance(body.get("query"), str):
        return {"errors": [{"errorType": "MalformedHttpRequestException", "message": "The request body must be a JSON object with a 'query' string."}]}
    variables = body.get("variables") or {}
    if not isinstance(variables, dict):
        return {"errors": [{"errorType": "MalformedHttpRequestException", "message": "'variables' must be a JSON object."}]}
    operation_name = body.get("operationName")
    document = api.validated_documents.get(body["query"])
    if document is None:
        try:
            document = parse(body["query"])
        except GraphQLError as error:
            return {"errors": [format_error(error, "ValidationError")]}
        validation_errors = validate(api.schema, document)
        if validation_errors:
            return {"data": None, "errors": [format_error(e, "ValidationError") for e in validation_errors]}
        api.remember(body["query"], document)
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode) and definition.operation == OperationType.SUBSCRIPTION:
            if operation_name is None or (definition.name and definition.name.value == operation_name):
                return {"data": None, "errors": [{"errorType": "UnsupportedOperation", "message": "The local server does not serve subscriptions."}]}
    result = execute(api.schema, document, variable_values=variables, operation_name=operation_name, context_value=context)
    response: dict[str, Any] = {"data": result.data}
    if result.errors:
        # Errors without a path come from coercing variables (the request never ran): AppSync calls them
        # validation errors too; resolver errors carry their path.
        response["errors"] = [format_error(e, "GraphQLError" if e.path else "ValidationError") for e in result.errors]
    return response


class Handler(BaseHTTPRequestHandler):
    server_version = "modelgen-graphql/1"
    protocol_version = "HTTP/1.1"
    # Headers and body go out as separate writes; without TCP_NODELAY, Nagle's algorithm and the
    # client's delayed ACK add ~40 ms to every keep-alive response.
    disable_nagle_algorithm = True
    api: API
    api_key: str | None
    authorizer: auth.Authorizer | None = None
    realtime: "realtime.RealtimeHub | None" = None
    verbose: bool
    requests_log: list
    log_lock = threading.Lock()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (BaseHTTPRequestHandler's name)
        if self.verbose:
            sys.stderr.write("%s - %s\n" % (self.address_string(), format % args))

    def _send(self, status: int, payload: Any, raw: bytes | None = None) -> None:
        body = raw if raw is not None else json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.realtime is not None and realtime.is_upgrade(self.path, self.headers):
            self.realtime.serve(self)
            return
        if self.path == "/test/realtime/subscriptions" and self.realtime is not None:
            self._send(200, self.realtime.active())
            return
        if self.path == "/test/realtime/connections" and self.realtime is not None:
            self._send(200, {"connections": self.realtime.connection_count(), "faulted": self.realtime.faulted})
            return
        if self.path == "/test/sync/lambda" and self.api.versioned is not None:
            with API.lock:
                self._send(200, list(self.api.versioned.lambda_calls))
            return
        if self.path == "/test/sync/delta" and self.api.versioned is not None:
            with API.lock:
                self._send(200, self.api.versioned.delta_entries())
            return
        if self.path.startswith("/test/records/"):
            # The stored records of one model, as the server holds them (FK fields included), so
            # tests assert what was written rather than what a resolver returns.
            with API.lock:
                self._send(200, self.api.store.all(self.path[len("/test/records/"):]))
            return
        if self.path == "/test/requests":
            with self.log_lock:
                self._send(200, list(self.requests_log))
        elif self.path == "/health":
            self._send(200, {"status": "ok"})
        else:
            self._send(404, {"errors": [{"message": "Not found"}]})

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.path == "/test/realtime/drop" and self.realtime is not None:
            self._send(200, {"dropped": self.realtime.drop_all()})
            return
        if self.path in ("/test/sync/lambda", "/test/sync/clock") and self.api.versioned is not None:
            try:
                setting = json.loads(raw or b"{}")
                with API.lock:
                    if self.path == "/test/sync/lambda":
                        if setting.get("action") not in ("accept", "reject", "replace"):
                            raise ValueError("action must be accept, reject or replace")
                        self.api.versioned.lambda_answer = setting
                    else:
                        self.api.versioned.clock_offset_ms = int(setting["offsetMs"])
            except (ValueError, KeyError, TypeError) as error:
                self._send(400, {"errors": [{"errorType": "BadRequestException", "message": str(error)}]})
                return
            self._send(200, {"ok": True})
            return
        if self.path == "/test/sync/seed" and self.api.versioned is not None:
            # Bulk-creates versioned items (version 1, timestamps stamped), publishing nothing: a
            # large base table for sync tests without one mutation per item.
            try:
                body = json.loads(raw or b"{}")
                with API.lock:
                    model = self.api.models[body["model"]]
                    stamp = now_iso()
                    self.api.store.connection.execute("BEGIN")  # one transaction for the batch
                    try:
                        for item in body["items"]:
                            record = dict(item)
                            for name in (model.created_at, model.updated_at):
                                if name and record.get(name) is None:
                                    record[name] = stamp
                            self.api.versioned.create(model.name, self.api._key_of(model, record), record)
                    finally:
                        self.api.store.connection.execute("COMMIT")
            except (ValueError, KeyError, TypeError, AppSyncError) as error:
                self._send(400, {"errors": [{"errorType": "BadRequestException", "message": str(error)}]})
                return
            self._send(200, {"seeded": len(body["items"])})
            return
        if self.path == "/test/reset":
            with API.lock:
                self.api.store.reset()
                if self.api.versioned is not None:
                    self.api.versioned.reset()
            with self.log_lock:
                self.requests_log.clear()
            self._send(200, {"reset": True})
            return
        if self.path != "/graphql":
            self._send(404, {"errors": [{"message": "Not found"}]})
            return
        if self.api_key is not None and self.headers.get("x-api-key") != self.api_key:
            self._send(401, {"errors": [{"errorType": "UnauthorizedException", "message": "You are not authorized to make this call."}]})
            return
        delay = self.headers.get("x-test-delay-ms")
        if delay:
            try:
                milliseconds = int(delay)
            except ValueError:
                self._send(400, {"errors": [{"errorType": "BadRequestException", "message": "x-test-delay-ms must be an integer"}]})
                return
            time.sleep(min(max(milliseconds, 0), MAX_DELAY_MS) / 1000)
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            self._send(400, {"errors": [{"errorType": "MalformedHttpRequestException", "message": "The request body is not valid JSON."}]})
            return
        with self.log_lock:
            self.requests_log.append({"body": body, "headers": {k.lower(): v for k, v in self.headers.items()}})
            del self.requests_log[:-1000]
        identity = None  # after the log: tests see rejected requests too
        if self.authorizer is not None:  # --auth-config: every AppSync mode (auth.py)
            try:
                identity = self.authorizer.authenticate("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, raw)
            except auth.Rejection as rejection:
                self._send(401, rejection.payload())
                return
        fail = (self.headers.get("x-test-fail") or "").lower()
        if fail == "http-500":
            self._send(500, None, raw=b"Internal Server Error (x-test-fail)")
            return
        if fail == "malformed":
            self._send(200, None, raw=b"{\"data\": {not json")
            return
        if fail == "close":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if fail == "graphql-error":
            self._send(200, {"data": None, "errors": [{"errorType": "TestInjectedError", "message": "Injected GraphQL error (x-test-fail)", "path": None, "locations": []}]})
            return
        context: dict[str, Any] = {"identity": identity}
        pause = self.headers.get("x-test-pause-after-check-ms")
        if pause:
            try:
                context["pause_after_check_ms"] = min(max(int(pause), 0), MAX_DELAY_MS)
            except ValueError:
                pass
        response = run_graphql(self.api, body, context)
        delay_after = self.headers.get("x-test-delay-after-ms")
        if delay_after:
            # The request is applied (committed) first: a client that gives up meanwhile (its task
            # stopped, a timeout, a kill) sent a mutation the server applied without the answer
            # reaching it.
            try:
                time.sleep(min(max(int(delay_after), 0), MAX_DELAY_MS) / 1000)
            except ValueError:
                pass
        if fail == "partial" and isinstance(response.get("data"), dict) and response["data"]:
            first = next(iter(response["data"]))
            response.setdefault("errors", []).append({"errorType": "TestInjectedError", "message": "Injected partial failure (x-test-fail)", "path": [first], "locations": []})
        self._send(200, response)


class Server(ThreadingHTTPServer):
    """The HTTP server; a peer that resets its connection is not a server error.

    A client that closes a keep-alive connection with unread data (or gives up on a request) makes
    the kernel send RST; the handler's next read or write raises `ConnectionResetError` or
    `BrokenPipeError`, which `socketserver` prints as "Exception occurred during processing of
    request" with a traceback. Those two are dropped quietly; any other exception is printed.
    """

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Local AppSync-compatible GraphQL server (modelgen tests)")
    parser.add_argument("--schema", required=True, help="API schema (schema.api.graphql) to serve")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1; 0 picks a free one")
    parser.add_argument("--db", help="SQLite file holding the data (created when missing); required unless --check")
    parser.add_argument("--check", action="store_true",
                        help="load and check the schema (graphql-core and @modelgen directives), print OK, exit")
    parser.add_argument("--manifest", default=None,
                        help="the modelgen manifest of the schema (default: schema.local.json beside it, when present)")
    parser.add_argument("--api-key", default=None, help="when given, requests need this x-api-key header")
    parser.add_argument("--auth-config", default=None,
                        help="JSON of the authorization modes to enforce with the schema's @aws_* directives (see auth.py)")
    parser.add_argument("--tombstone-ttl-ms", type=int, default=versioned.DEFAULT_TOMBSTONE_TTL_MS,
                        help="versioned models: how long a delete's tombstone stays in the base table")
    parser.add_argument("--delta-ttl-ms", type=int, default=versioned.DEFAULT_DELTA_TTL_MS,
                        help="versioned models: how long the delta log keeps a change")
    parser.add_argument("--verbose", action="store_true", help="log requests to stderr")
    parser.add_argument("--tls-cert", help="serve HTTPS and WSS with this PEM certificate (chain)")
    parser.add_argument("--tls-key", help="the PEM private key of --tls-cert")
    args = parser.parse_args(argv)
    if not args.check and not args.db:
        parser.error("--db is required unless --check is given")

    try:
        with open(args.schema, encoding="utf-8") as file:
            sdl = file.read()
    except OSError as error:
        print(f"error: {args.schema}: {error.strerror}", file=sys.stderr)
        return 1
    import os

    manifest_path = args.manifest or manifest_path_for(args.schema)
    manifest = None
    try:
        if args.manifest or os.path.exists(manifest_path):
            manifest = load_manifest(manifest_path)
    except (OSError, ValueError, AppSyncError) as error:
        print(f"error: {manifest_path}: {error}", file=sys.stderr)
        return 1
    try:
        api = API(sdl, Store(":memory:" if args.check else args.db), manifest,
                  args.tombstone_ttl_ms, args.delta_ttl_ms)
        if manifest is None and not api.models:
            # A schema modelgen emits says nothing about its models: that is the manifest's job.
            print(f"error: {args.schema}: no model metadata: no manifest at {manifest_path} (modelgen writes "
                  f"schema.local.json beside schema.api.graphql; pass --manifest FILE) and no @modelgen "
                  f"directives in the schema", file=sys.stderr)
            return 1
    except (GraphQLError, AppSyncError, TypeError, KeyError) as error:
        # An invalid schema, or @modelgen directives that name unknown models or miss arguments.
        print(f"error: {args.schema}: {error}", file=sys.stderr)
        return 1
    except sqlite3.Error as error:
        print(f"error: {args.db}: {error}", file=sys.stderr)
        return 1

    if args.check:
        print(f"OK {args.schema}", flush=True)
        return 0

    authorizer = None
    if args.auth_config:
        try:
            authorizer = auth.load(args.auth_config)
            authorizer.install(api)
        except auth.ConfigError as error:
            # Every rule the transformer would reject, one a line (never a credential: rules hold none).
            for problem in error.problems:
                print(f"error: {problem}", file=sys.stderr)
            return 1
    hub = realtime.RealtimeHub(api, args.api_key, format_error, matches, authorizer=authorizer)
    api.mutation_listeners = [hub.publish]
    handler = type("BoundHandler", (Handler,), {
        "api": api, "api_key": args.api_key, "verbose": args.verbose, "requests_log": [],
        "authorizer": authorizer, "realtime": hub,
    })
    server = Server(("127.0.0.1", args.port), handler)
    server.daemon_threads = True
    if args.tls_cert:
        import ssl

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"LISTENING {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
