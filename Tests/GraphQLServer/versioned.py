"""A versioned data source for the local server: AppSync's conflict detection and sync operations.

Enabled per model by its manifest entry's `conflictHandler` (`schema.local.json`, written by
`modelgen generate --conflict-resolution`; a hand-written schema may say `@modelgenSync(conflictHandler:)`). It follows the public AppSync developer guide, "Versioning, conflict
detection, and sync operations for DynamoDB data sources" and "Conflict detection and resolution":

- Every item carries `_version` (1 on create, +1 per change), `_lastChangedAt` (epoch milliseconds)
  and `_deleted` (`null`, or `true` on a tombstone).
- A delete leaves a tombstone (`_deleted: true`) in the base table for the tombstone TTL
  (`--tombstone-ttl-ms`, AppSync's "BaseTableTTL"); get and list still return tombstones, as
  AppSync does for a versioned source.
- Each change is appended to a delta log kept for the delta TTL (`--delta-ttl-ms`, "DeltaSyncTableTTL"),
  in the same SQLite transaction as the base-table write: a killed server never keeps a change
  that its delta queries miss.
- `sync<Plural>(filter, limit, nextToken, lastSync)`: with no `lastSync`, or one older than the
  delta TTL, a base query (every item, tombstones included, in primary-key order); else a delta
  query (the latest change of each item changed at or after `lastSync`, in change order). Both are
  paged by `limit`/`nextToken`; every page of one sync reports the same `startedAt` (the time the
  first page began), which the client stores as its next `lastSync`. A base sync's pages are cut
  from the table as its first page read it (one read and sort per sync, not per page): a change
  made during the sync is not in its later pages but in the next delta sync (changed at or after
  `startedAt`); a restarted server reads the table again and goes on after the token's key.
- A mutation whose `_version` is not the item's current one (or that leaves `_version` out, or
  targets a tombstone) is a conflict, resolved by the model's handler:
  - `OPTIMISTIC_CONCURRENCY`: rejected: an error with `errorType: "ConflictUnhandled"` whose `data`
    is the server's current item.
  - `AUTOMERGE`: merged into the current item (scalars keep the stored value, lists are
    concatenated with duplicates kept, fields the item lacks or holds `null` take the incoming
    value, maps merge per key by the same rules) and written as the next version. A conflicting
    delete, or any mutation of a tombstone, cannot be merged: `ConflictUnhandled`.
  - `LAMBDA`: the test-configured hook decides (`POST /test/sync/lambda`, below): `accept` writes the
    incoming mutation as the next version, `reject` is `ConflictUnhandled`, `replace` writes the
    hook's item (its fields over the stored item) as the next version.

Test hooks (HTTP, served by server.py):
- `POST /test/sync/lambda` `{"action": "accept"|"reject"|"replace", "item": {...}}`: the Lambda
  conflict handler's answer from now on (default `reject`); `GET /test/sync/lambda` lists the
  conflicts it was asked about (`{"model", "operation", "incoming", "existing"}`), oldest first.
- `POST /test/sync/clock` `{"offsetMs": N}`: shifts the data source's clock (timestamps, TTLs,
  `startedAt`) by N ms, so TTL expiry is tested without waiting.
- `POST /test/sync/seed` `{"model": "Post", "items": [...]}`: creates the items as version 1 (each
  a create, in the delta log too), publishing nothing: a large table without a mutation per item.
- `GET /test/sync/delta`: the delta log's entries (`{"model", "changedAt", "item"}`), oldest first.

Callers hold `API.lock`: every method here runs inside one mutation or query, atomically.
"""

from __future__ import annotations

import base64
import bisect
import json
import time
from typing import Any, Callable

CONFLICT_HANDLERS = ("AUTOMERGE", "OPTIMISTIC_CONCURRENCY", "LAMBDA")
DEFAULT_TOMBSTONE_TTL_MS = 30 * 24 * 3600 * 1000  # AppSync's default BaseTableTTL: 30 days
DEFAULT_DELTA_TTL_MS = 30 * 60 * 1000  # Amplify's default DeltaSyncTableTTL: 30 minutes
DEFAULT_SYNC_LIMIT = 100
METADATA_FIELDS = ("_version", "_deleted", "_lastChangedAt")


class ConflictUnhandled(Exception):
    """A rejected conflicting mutation; server.py renders it as an AppSync error carrying `data`."""

    def __init__(self, item: dict, message: str = "Conflict resolver rejects mutation.") -> None:
        super().__init__(message)
        self.item = item


def merge(existing: Any, incoming: Any) -> Any:
    """AppSync's Automerge rules for one value (existing = the stored value)."""
    if existing is None:
        return incoming
    if isinstance(existing, list) and isinstance(incoming, list):
        return existing + incoming
    if isinstance(existing, dict) and isinstance(incoming, dict):
        merged = dict(existing)
        for key, value in incoming.items():
            merged[key] = merge(existing.get(key), value)
        return merged
    return existing


class VersionedSource:
    """The versioned base table (the server's Store, items with metadata) and its delta log."""

    def __init__(self, store: Any, handlers: dict[str, str], primary_keys: dict[str, list[str]],
                 tombstone_ttl_ms: int = DEFAULT_TOMBSTONE_TTL_MS, delta_ttl_ms: int = DEFAULT_DELTA_TTL_MS) -> None:
        for model, handler in handlers.items():
            if handler not in CONFLICT_HANDLERS:
                raise KeyError(f"@modelgenSync on '{model}': unknown conflictHandler '{handler}'")
        self.store = store
        self.handlers = handlers  # model name -> conflict handler
        self.primary_keys = primary_keys  # model name -> primary key fields
        self.tombstone_ttl_ms = tombstone_ttl_ms
        self.delta_ttl_ms = delta_ttl_ms
        self.clock_offset_ms = 0
        self.lambda_answer: dict = {"action": "reject"}
        self.lambda_calls: list[dict] = []
        self.last_expiry: dict[str, int] = {}  # model -> the source's time of its last expiry pass
        # (model, filter, startedAt) -> (primary-key ranks, items) of a base sync's scan, oldest first
        self.base_scans: dict[tuple, tuple[list, list]] = {}
        store.connection.execute(
            "CREATE TABLE IF NOT EXISTS delta_log (seq INTEGER PRIMARY KEY AUTOINCREMENT,"
            " model TEXT NOT NULL, key TEXT NOT NULL, changed_at INTEGER NOT NULL, data TEXT NOT NULL)"
        )

    def versioned(self, model: str) -> bool:
        return model in self.handlers

    def now_ms(self) -> int:
        return int(time.time() * 1000) + self.clock_offset_ms

    # -- expiry

    def _expire(self, model: str) -> None:
        """Drops expired tombstones and delta entries; at most once per second of the source's clock
        (each pass reads the model's tombstones: SQLite's JSON functions pick them out)."""
        now = self.now_ms()
        if now - self.last_expiry.get(model, -10**15) < 1000:
            return
        self.last_expiry[model] = now
        tombstones = self.store.connection.execute(
            "SELECT data FROM records WHERE model = ? AND json_extract(data, '$._deleted') = 1", (model,)
        ).fetchall()
        for record in (json.loads(row[0]) for row in tombstones):
            if record.get("_deleted") and record.get("_lastChangedAt", 0) < now - self.tombstone_ttl_ms:
                self.store.delete(model, [record.get(name) for name in self.primary_keys[model]])
        self.store.connection.execute("DELETE FROM delta_log WHERE changed_at < ?", (now - self.delta_ttl_ms,))

    # -- writes

    def _write(self, model: str, key: list, record: dict) -> dict:
        """Writes the item to the base table and appends it to the delta log in one SQLite
        transaction (a savepoint, so it nests in the seed hook's batch): a process killed between
        the two statements (`kill -9` in the sync tests) must not leave a changed item whose change
        no delta query ever returns."""
        record["_lastChangedAt"] = self.now_ms()
        connection = self.store.connection
        connection.execute("SAVEPOINT versioned_write")
        try:
            self.store.put(model, key, record)
            connection.execute(
                "INSERT INTO delta_log (model, key, changed_at, data) VALUES (?, ?, ?, ?)",
                (model, self.store.key(key), record["_lastChangedAt"], json.dumps(record, ensure_ascii=False)),
            )
        except BaseException:
            connection.execute("ROLLBACK TO versioned_write")
            connection.execute("RELEASE versioned_write")
            raise
        connection.execute("RELEASE versioned_write")
        return record

    def create(self, model: str, key: list, record: dict) -> dict:
        """A new item: `_version` 1 (the input's `_version`, if any, is ignored)."""
        self._expire(model)
        record = {k: v for k, v in record.items() if k not in METADATA_FIELDS}
        record["_version"] = 1
        record["_deleted"] = None
        return self._write(model, key, record)

    def update(self, model: str, key: list, existing: dict, input_: dict,
               stamp: Callable[[dict], None]) -> dict:
        """Updates `existing` with `input_` (which carries the client's `_version`)."""
        self._expire(model)
        incoming = {k: v for k, v in input_.items() if k not in METADATA_FIELDS}
        if not existing.get("_deleted") and input_.get("_version") == existing.get("_version"):
            return self._next(model, key, existing, incoming, stamp)
        return self._resolve(model, key, existing, incoming, "UPDATE", input_.get("_version"), stamp)

    def delete(self, model: str, key: list, existing: dict, input_: dict) -> dict:
        """Turns `existing` into a tombstone when `input_["_version"]` is current."""
        self._expire(model)
        if not existing.get("_deleted") and input_.get("_version") == existing.get("_version"):
            return self._tombstone(model, key, existing)
        handler = self.handlers[model]
        if handler == "LAMBDA" and not existing.get("_deleted"):
            answer = self._ask_lambda(model, "DELETE", input_, existing)
            if answer["action"] == "accept":
                return self._tombstone(model, key, existing)
            if answer["action"] == "replace":
                return self._next(model, key, existing, dict(answer.get("item") or {}), lambda _r: None)
        raise ConflictUnhandled(existing)

    def _tombstone(self, model: str, key: list, existing: dict) -> dict:
        record = dict(existing)
        record["_version"] = existing.get("_version", 0) + 1
        record["_deleted"] = True
        return self._write(model, key, record)

    def _next(self, model: str, key: list, existing: dict, fields: dict, stamp: Callable[[dict], None]) -> dict:
        record = dict(existing)
        record.update({k: v for k, v in fields.items() if k not in METADATA_FIELDS})
        record.update(zip(self.primary_keys[model], key))  # a hook's item cannot move the key
        record["_version"] = existing.get("_version", 0) + 1
        stamp(record)
        return self._write(model, key, record)

    def _resolve(self, model: str, key: list, existing: dict, incoming: dict, operation: str,
                 version: Any, stamp: Callable[[dict], None]) -> dict:
        handler = self.handlers[model]
        if existing.get("_deleted"):
            raise ConflictUnhandled(existing)
        if handler == "OPTIMISTIC_CONCURRENCY":
            raise ConflictUnhandled(existing)
        if handler == "AUTOMERGE":
            merged = {name: merge(existing.get(name), value) for name, value in incoming.items()}
            return self._next(model, key, existing, merged, stamp)
        answer = self._ask_lambda(model, operation, dict(incoming, _version=version), existing)
        if answer["action"] == "accept":
            return self._next(model, key, existing, incoming, stamp)
        if answer["action"] == "replace":
            return self._next(model, key, existing, dict(answer.get("item") or {}), stamp)
        raise ConflictUnhandled(existing)

    def _ask_lambda(self, model: str, operation: str, incoming: dict, existing: dict) -> dict:
        self.lambda_calls.append({"model": model, "operation": operation, "incoming": incoming, "existing": existing})
        del self.lambda_calls[:-1000]
        return self.lambda_answer

    # -- the sync query

    def sync(self, model: str, primary_key: list[str], args: dict, matches: Callable[[dict, Any], bool],
             rank: Callable[[Any], tuple]) -> dict:
        """One page of `sync<Plural>`: base or delta query, after the rules in the module docstring."""
        self._expire(model)
        limit = args.get("limit")
        limit = DEFAULT_SYNC_LIMIT if limit is None else limit
        if limit < 1:
            raise ValueError("limit must be at least 1")
        last_sync = args.get("lastSync")
        token = self._decode(args.get("nextToken"), model, last_sync, args.get("filter"))
        started_at = token["s"] if token else self.now_ms()
        delta = last_sync is not None and last_sync >= started_at - self.delta_ttl_ms
        if delta:
            rows = self.store.connection.execute(
                "SELECT seq, key, data FROM delta_log WHERE model = ? AND changed_at >= ? AND seq > ? ORDER BY seq",
                (model, last_sync, token["a"] if token else 0),
            ).fetchall()
            latest: dict[str, tuple[int, dict]] = {}
            for seq, key, data in rows:
                latest[key] = (seq, json.loads(data))  # a later change of an item replaces the earlier one
            entries = sorted(latest.values(), key=lambda entry: entry[0])
            entries = [(seq, item) for seq, item in entries if matches(item, args.get("filter"))]
            page = entries[:limit]
            items = [item for _seq, item in page]
            after = page[-1][0] if page and len(entries) > limit else None
        else:
            # The scan of one base sync (its startedAt, model and filter) is read and ordered once, at
            # its first page; later pages continue it from the token (a binary search), so paging
            # through N items costs O(N log N), not O(N) per page. Changes made meanwhile are the
            # delta sync's from `startedAt`, as for any change during a scan.
            scan_key = (model, json.dumps(args.get("filter"), sort_keys=True), started_at)
            scan = self.base_scans.get(scan_key) if token else None
            if scan is None:
                records = [r for r in self.store.all(model) if matches(r, args.get("filter"))]
                keyed = sorted(
                    (([list(rank(r.get(f))) for f in primary_key], r) for r in records), key=lambda pair: pair[0])
                scan = ([key for key, _ in keyed], [r for _, r in keyed])
                self.base_scans[scan_key] = scan
                while len(self.base_scans) > 4:  # the scans of the last few syncs
                    self.base_scans.pop(next(iter(self.base_scans)))
            keys, ordered = scan
            start = bisect.bisect_right(keys, token["a"]) if token else 0
            items = [dict(item) for item in ordered[start:start + limit]]  # copies: the scan stays as read
            after = keys[start + len(items) - 1] if items and len(ordered) > start + limit else None
        next_token = None
        if after is not None:
            next_token = self._encode({"m": model, "l": last_sync, "f": args.get("filter"), "s": started_at, "a": after})
        return {"items": items, "nextToken": next_token, "startedAt": started_at}

    @staticmethod
    def _encode(payload: dict) -> str:
        raw = json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @staticmethod
    def _decode(token: str | None, model: str, last_sync: Any, filter_: Any) -> dict | None:
        if not token:
            return None
        try:
            payload = json.loads(base64.urlsafe_b64decode((token + "=" * (-len(token) % 4)).encode()))
            if payload["m"] != model or payload["l"] != last_sync or payload["f"] != filter_:
                raise ValueError
            return payload
        except (ValueError, KeyError, TypeError):
            raise InvalidToken() from None

    def delta_entries(self) -> list[dict]:
        rows = self.store.connection.execute("SELECT model, changed_at, data FROM delta_log ORDER BY seq").fetchall()
        return [{"model": m, "changedAt": c, "item": json.loads(d)} for m, c, d in rows]

    def reset(self) -> None:
        self.store.connection.execute("DELETE FROM delta_log")
        self.lambda_calls.clear()
        self.base_scans.clear()


class InvalidToken(Exception):
    """A `nextToken` that no page of this sync query returned."""
