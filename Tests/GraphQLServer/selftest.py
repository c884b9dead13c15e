#!/usr/bin/env python3
"""Self-test of the local GraphQL server: starts it on the seed's API schema and checks it.

Usage: python selftest.py [--schema PATH]   (run with the venv's python; see README.md)

Talks only to 127.0.0.1. Prints one line per check and a closing `N passed, N failed` line;
exits non-zero when a check fails.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = HERE / "fixtures"
API_KEY = "selftest-key"


class Server:
    def __init__(self, schema: Path, db: Path, api_key: str | None = API_KEY, auth_config: Path | None = None) -> None:
        command = [sys.executable, str(HERE / "server.py"), "--schema", str(schema), "--port", "0", "--db", str(db)]
        if api_key:
            command += ["--api-key", api_key]
        if auth_config:
            command += ["--auth-config", str(auth_config)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("LISTENING "):
            self.process.kill()
            raise RuntimeError(f"server did not start: {line!r} {self.process.stderr.read()}")
        self.port = int(line.split()[1])

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.process.stdout.close()
        self.process.stderr.close()

    def post(self, query: str, variables: dict | None = None, headers: dict | None = None, path: str = "/graphql",
             api_key: str | None = API_KEY, timeout: float = 10) -> tuple[int, dict]:
        body = json.dumps({"query": query, "variables": variables or {}}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=body, method="POST")
        request.add_header("Content-Type", "application/json")
        if api_key:
            request.add_header("x-api-key", api_key)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            raw = error.read()
            status = error.code
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, {"raw": raw.decode(errors="replace")}

    def gql(self, query: str, variables: dict | None = None, **kwargs: object) -> dict:
        status, body = self.post(query, variables, **kwargs)
        assert status == 200, (status, body)
        return body


CHECKS: list[tuple[str, object]] = []


def check(function=None, *, schema: str = "seed-post-comment"):
    """Registers a check that runs against a fresh server on the API schema of `schema` (a file stem)."""

    def register(function):
        CHECKS.append((schema, function))
        return function

    return register(function) if function is not None else register


def schema_path(stem: str) -> Path:
    """The checked-in emitted schema of `stem`: Generated/ (the feature tour's golden: fixtures/)."""
    for candidate in (
        REPO / "Generated" / stem / "schema.api.graphql",
        REPO / "Generated" / "regressions" / stem / "schema.api.graphql",
    ):
        if candidate.exists():
            return candidate
    return FIXTURES / f"{stem}.api.graphql"


CREATE_POST = "mutation C($input: CreatePost4V2Input!) { createPost4V2(input: $input) { id title createdAt updatedAt } }"
CREATE_COMMENT = """mutation C($input: CreateComment4V2Input!, $condition: ModelComment4V2ConditionInput) {
  createComment4V2(input: $input, condition: $condition) { id postID content post { id __typename } } }"""
GET_COMMENT = "query G($id: ID!) { getComment4V2(id: $id) { id content postID post { id title } } }"
BY_POST = """query Q($postID: ID!, $content: ModelStringKeyConditionInput, $sortDirection: ModelSortDirection,
  $filter: ModelComment4V2FilterInput, $limit: Int, $nextToken: String) {
  comment4V2sByPostIDAndContent(postID: $postID, content: $content, sortDirection: $sortDirection,
    filter: $filter, limit: $limit, nextToken: $nextToken) { items { id content } nextToken } }"""
LIST_COMMENTS = """query L($filter: ModelComment4V2FilterInput, $limit: Int, $nextToken: String) {
  listComment4V2s(filter: $filter, limit: $limit, nextToken: $nextToken) { items { id content } nextToken } }"""


def seed(server: Server, count: int = 12) -> tuple[str, list[str]]:
    post = server.gql(CREATE_POST, {"input": {"title": "Seed"}})["data"]["createPost4V2"]
    ids = []
    for number in range(count):
        comment = server.gql(CREATE_COMMENT, {"input": {"postID": post["id"], "content": f"c{number:03d}"}})
        ids.append(comment["data"]["createComment4V2"]["id"])
    return post["id"], ids


@check
def create_and_get(server: Server) -> None:
    post = server.gql(CREATE_POST, {"input": {"id": "p-\"\\#🙂", "title": "Hello"}})["data"]["createPost4V2"]
    assert post["id"] == "p-\"\\#🙂" and post["title"] == "Hello", post
    assert post["createdAt"].endswith("Z") and post["createdAt"] == post["updatedAt"], post
    comment = server.gql(CREATE_COMMENT, {"input": {"id": "c1", "postID": post["id"], "content": "first"}})
    assert comment["data"]["createComment4V2"] == {
        "id": "c1", "postID": post["id"], "content": "first", "post": {"id": post["id"], "__typename": "Post4V2"}
    }, comment
    got = server.gql(GET_COMMENT, {"id": "c1"})["data"]["getComment4V2"]
    assert got == {"id": "c1", "content": "first", "postID": post["id"], "post": {"id": post["id"], "title": "Hello"}}, got
    missing = server.gql(GET_COMMENT, {"id": "nope"})
    assert missing == {"data": {"getComment4V2": None}}, missing


@check
def generated_id(server: Server) -> None:
    post = server.gql(CREATE_POST, {"input": {"title": "No id"}})["data"]["createPost4V2"]
    assert len(post["id"]) == 36, post


@check
def index_query_pages_in_sort_key_order(server: Server) -> None:
    post_id, _ = seed(server, 250)
    contents, token, pages = [], None, 0
    while True:
        page = server.gql(BY_POST, {"postID": post_id, "limit": 100, "nextToken": token})["data"]["comment4V2sByPostIDAndContent"]
        contents += [item["content"] for item in page["items"]]
        pages += 1
        token = page["nextToken"]
        if token is None:
            break
    assert pages == 3 and contents == [f"c{n:03d}" for n in range(250)], (pages, contents[:3])


@check
def index_query_sort_key_condition_and_direction(server: Server) -> None:
    post_id, _ = seed(server, 12)
    page = server.gql(BY_POST, {"postID": post_id, "content": {"beginsWith": "c00"}, "sortDirection": "DESC"})
    items = [i["content"] for i in page["data"]["comment4V2sByPostIDAndContent"]["items"]]
    assert items == [f"c{n:03d}" for n in range(9, -1, -1)], items
    page = server.gql(BY_POST, {"postID": post_id, "content": {"between": ["c003", "c005"]}})
    items = [i["content"] for i in page["data"]["comment4V2sByPostIDAndContent"]["items"]]
    assert items == ["c003", "c004", "c005"], items


@check
def has_many_connection_pages(server: Server) -> None:
    post_id, _ = seed(server, 5)
    query = """query G($id: ID!, $token: String) { getPost4V2(id: $id) {
      comments(limit: 2, nextToken: $token, sortDirection: DESC) { items { content } nextToken } } }"""
    seen, token = [], None
    for _ in range(3):
        comments = server.gql(query, {"id": post_id, "token": token})["data"]["getPost4V2"]["comments"]
        seen += [item["content"] for item in comments["items"]]
        token = comments["nextToken"]
    assert seen == ["c004", "c003", "c002", "c001", "c000"] and token is None, (seen, token)


@check
def list_with_filters(server: Server) -> None:
    post_id, _ = seed(server, 10)
    cases = [
        ({"content": {"eq": "c003"}}, ["c003"]),
        ({"content": {"ne": "c003"}, "postID": {"eq": post_id}}, [f"c{n:03d}" for n in range(10) if n != 3]),
        ({"content": {"between": ["c002", "c004"]}}, ["c002", "c003", "c004"]),
        ({"content": {"gt": "c007"}}, ["c008", "c009"]),
        ({"content": {"le": "c001"}}, ["c000", "c001"]),
        ({"content": {"contains": "09"}}, ["c009"]),
        ({"or": [{"content": {"eq": "c001"}}, {"content": {"eq": "c002"}}]}, ["c001", "c002"]),
        ({"and": [{"content": {"beginsWith": "c00"}}, {"not": {"content": {"lt": "c008"}}}]}, ["c008", "c009"]),
        ({"content": {"notContains": "c00"}}, []),
        ({"content": {"attributeExists": False}}, []),
        ({"content": {"size": {"eq": 4}}, "id": {"attributeExists": True}}, [f"c{n:03d}" for n in range(10)]),
    ]
    for filter_, expected in cases:
        items = server.gql(LIST_COMMENTS, {"filter": {"and": [filter_, {"postID": {"eq": post_id}}]}})
        got = sorted(i["content"] for i in items["data"]["listComment4V2s"]["items"])
        assert got == expected, (filter_, got)


@check
def list_paging_with_limit(server: Server) -> None:
    post_id, _ = seed(server, 7)
    flt = {"postID": {"eq": post_id}}
    first = server.gql(LIST_COMMENTS, {"filter": flt, "limit": 4})["data"]["listComment4V2s"]
    second = server.gql(LIST_COMMENTS, {"filter": flt, "limit": 4, "nextToken": first["nextToken"]})["data"]["listComment4V2s"]
    ids = [i["id"] for i in first["items"] + second["items"]]
    assert len(first["items"]) == 4 and len(second["items"]) == 3 and second["nextToken"] is None, (first, second)
    assert len(set(ids)) == 7, ids
    # Writes between pages neither repeat nor skip records (the token holds the last key, not an offset).
    third = server.gql(LIST_COMMENTS, {"filter": flt, "limit": 2})["data"]["listComment4V2s"]
    server.gql("mutation D($input: DeleteComment4V2Input!) { deleteComment4V2(input: $input) { id } }",
               {"input": {"id": third["items"][0]["id"]}})
    rest = server.gql(LIST_COMMENTS, {"filter": flt, "limit": 10, "nextToken": third["nextToken"]})["data"]["listComment4V2s"]
    assert [i["id"] for i in rest["items"]] == sorted(ids)[2:], (rest, sorted(ids))
    bad = server.gql(LIST_COMMENTS, {"filter": {"postID": {"eq": "other"}}, "nextToken": first["nextToken"]})
    assert bad["errors"][0]["errorType"] == "InvalidNextTokenException", bad


@check
def conditions_and_mutations(server: Server) -> None:
    post_id, (comment_id, *_) = seed(server, 2)
    update = """mutation U($input: UpdateComment4V2Input!, $condition: ModelComment4V2ConditionInput) {
      updateComment4V2(input: $input, condition: $condition) { id content updatedAt } }"""
    failed = server.gql(update, {"input": {"id": comment_id, "content": "x"}, "condition": {"content": {"eq": "wrong"}}})
    assert failed["data"] == {"updateComment4V2": None}, failed
    assert failed["errors"][0]["errorType"] == "DynamoDB:ConditionalCheckFailedException", failed
    assert failed["errors"][0]["path"] == ["updateComment4V2"], failed
    done = server.gql(update, {"input": {"id": comment_id, "content": "x"}, "condition": {"content": {"eq": "c000"}}})
    assert done["data"]["updateComment4V2"]["content"] == "x", done
    duplicate = server.gql(CREATE_COMMENT, {"input": {"id": comment_id, "postID": post_id, "content": "again"}})
    assert duplicate["errors"][0]["errorType"] == "DynamoDB:ConditionalCheckFailedException", duplicate
    missing = server.gql(update, {"input": {"id": "missing", "content": "x"}})
    assert missing["errors"][0]["errorType"] == "DynamoDB:ConditionalCheckFailedException", missing
    delete = "mutation D($input: DeleteComment4V2Input!) { deleteComment4V2(input: $input) { id content } }"
    deleted = server.gql(delete, {"input": {"id": comment_id}})
    assert deleted["data"]["deleteComment4V2"] == {"id": comment_id, "content": "x"}, deleted
    assert server.gql(GET_COMMENT, {"id": comment_id})["data"]["getComment4V2"] is None


@check
def validation_rejects_bad_documents(server: Server) -> None:
    unknown = server.gql("{ getComment4V2(id: \"1\") { id nope } }")
    assert unknown["data"] is None and unknown["errors"][0]["errorType"] == "ValidationError", unknown
    wrong_arg = server.gql("query { getComment4V2(key: \"1\") { id } }")
    assert wrong_arg["errors"][0]["errorType"] == "ValidationError", wrong_arg
    syntax = server.gql("query { getComment4V2(id: ")
    assert syntax["errors"][0]["errorType"] == "ValidationError", syntax
    bad_variable = server.gql(GET_COMMENT, {"id": None})
    assert "errors" in bad_variable and bad_variable.get("data") is None, bad_variable
    bad_date = server.gql("{ listPost4V2s(filter: {createdAt: {eq: 5}}) { items { id } } }")
    assert bad_date["errors"][0]["errorType"] == "ValidationError", bad_date


@check
def api_key_is_required(server: Server) -> None:
    status, body = server.post("{ listPost4V2s { items { id } } }", api_key="wrong")
    assert status == 401 and body["errors"][0]["errorType"] == "UnauthorizedException", (status, body)
    status, _ = server.post("{ listPost4V2s { items { id } } }", api_key=None)
    assert status == 401


@check
def test_hooks(server: Server) -> None:
    query = "{ listPost4V2s(limit: 1) { items { id } } }"
    status, body = server.post(query, headers={"x-test-fail": "http-500"})
    assert status == 500 and "raw" in body, (status, body)
    status, body = server.post(query, headers={"x-test-fail": "graphql-error"})
    assert status == 200 and body["data"] is None and body["errors"][0]["errorType"] == "TestInjectedError", body
    status, body = server.post(query, headers={"x-test-fail": "partial"})
    assert body["data"]["listPost4V2s"] is not None and body["errors"][0]["path"] == ["listPost4V2s"], body
    status, body = server.post(query, headers={"x-test-fail": "malformed"})
    assert status == 200 and "raw" in body, body
    started = time.monotonic()
    server.post(query, headers={"x-test-delay-ms": "300"})
    assert time.monotonic() - started >= 0.3
    try:
        server.post(query, headers={"x-test-delay-ms": "2000"}, timeout=0.2)
        raise AssertionError("expected a timeout")
    except TimeoutError:
        pass
    # x-test-delay-after-ms applies the request before sleeping: the mutation is stored although
    # the client gave up waiting for its answer.
    try:
        server.post(CREATE_POST, {"input": {"id": "delayed-after", "title": "applied"}},
                    headers={"x-test-delay-after-ms": "2000"}, timeout=0.2)
        raise AssertionError("expected a timeout")
    except TimeoutError:
        pass
    stored = server.gql("query G($id: ID!) { getPost4V2(id: $id) { id title } }", {"id": "delayed-after"})
    assert stored["data"]["getPost4V2"] == {"id": "delayed-after", "title": "applied"}, stored
    try:
        server.post(query, headers={"x-test-fail": "close"})
        raise AssertionError("expected a dropped connection")
    except (http.client.RemoteDisconnected, ConnectionError, urllib.error.URLError):
        pass
    post = server.gql(CREATE_POST, {"input": {"title": "__modelgen_fail__"}})
    assert post["data"]["createPost4V2"] is None, post
    assert post["errors"][0]["path"] == ["createPost4V2", "title"], post
    stored = server.gql("query G($id: ID!) { getPost4V2(id: $id) { id } }", {"id": _last_post_id(server)})
    assert stored["data"]["getPost4V2"] is not None, stored


def _last_post_id(server: Server) -> str:
    items = server.gql("{ listPost4V2s(filter: {title: {eq: \"__modelgen_fail__\"}}) { items { id } } }")
    return items["data"]["listPost4V2s"]["items"][0]["id"]


@check
def subscriptions_are_refused(server: Server) -> None:
    body = server.gql("subscription { onCreatePost4V2 { id } }")
    assert body["errors"][0]["errorType"] == "UnsupportedOperation", body


@check
def data_persists_across_restart(server: Server) -> None:
    post = server.gql(CREATE_POST, {"input": {"id": "persist", "title": "kept"}})
    assert post["data"]["createPost4V2"]["id"] == "persist"


READING_FIELDS = "id takenAt day time seq priority value note"
CREATE_READING = f"mutation C($input: CreateReadingInput!) {{ createReading(input: $input) {{ {READING_FIELDS} }} }}"


def reading(seq: int, value: float, priority: str = "LOW", day: str = "2026-11-30") -> dict:
    return {"id": "sensor-\"1\"#🙂", "takenAt": "2026-11-30T10:00:00.000Z", "day": day, "time": "10:00:00",
            "seq": seq, "priority": priority, "value": value}


@check(schema="composite-key-non-string-components")
def composite_key_with_non_string_components(server: Server) -> None:
    for seq, value, priority in [(1, 1.5, "LOW"), (1, 2.0, "LOW"), (2, 1.5, "HIGH"), (3, 0.25, "LOW")]:
        created = server.gql(CREATE_READING, {"input": reading(seq, value, priority)})
        assert created["data"]["createReading"]["value"] == value, created
    get = """query G($id: ID!, $takenAt: AWSDateTime!, $day: AWSDate!, $time: AWSTime!, $seq: Int!,
      $priority: Priority!, $value: Float!) { getReading(id: $id, takenAt: $takenAt, day: $day, time: $time,
      seq: $seq, priority: $priority, value: $value) { seq value priority } }"""
    got = server.gql(get, reading(1, 2))["data"]["getReading"]
    assert got == {"seq": 1, "value": 2.0, "priority": "LOW"}, got
    assert server.gql(get, reading(1, 2.5))["data"]["getReading"] is None
    listing = """query L($id: ID, $key: ModelReadingPrimaryCompositeKeyConditionInput, $dir: ModelSortDirection) {
      listReadings(id: $id, takenAtDayTimeSeqPriorityValue: $key, sortDirection: $dir) { items { seq value } nextToken } }"""
    prefix = {"takenAt": "2026-11-30T10:00:00.000Z", "day": "2026-11-30", "time": "10:00:00", "seq": 1}
    items = server.gql(listing, {"id": reading(0, 0)["id"], "key": {"beginsWith": prefix}})["data"]["listReadings"]["items"]
    assert items == [{"seq": 1, "value": 1.5}, {"seq": 1, "value": 2.0}], items
    everything = server.gql(listing, {"id": reading(0, 0)["id"], "dir": "DESC"})["data"]["listReadings"]["items"]
    assert [i["seq"] for i in everything] == [3, 2, 1, 1], everything
    bad = server.gql(get, {**reading(1, 2), "day": "30.11.2026"})
    assert bad.get("data") is None and "AWSDate" in bad["errors"][0]["message"], bad


BOOKS_BY_AUTHOR = """query Q($author: String!, $key: ModelBookBooksByAuthorAndYearAndTitleCompositeKeyConditionInput,
  $dir: ModelSortDirection, $limit: Int, $next: String) { booksByAuthorAndYearAndTitle(author: $author, yearTitle: $key,
  sortDirection: $dir, limit: $limit, nextToken: $next) { items { id } nextToken } }"""


@check(schema="index-secondary")
def composite_sort_key_conditions_compare_the_joined_text(server: Server) -> None:
    """As the transformer's resolver (applyCompositeKeyConditionExpression): every operator compares
    the given values joined by "#" with the stored `year#title` as text, and the index orders by it."""
    create = "mutation C($input: CreateBookInput!) { createBook(input: $input) { id } }"
    for id_, author, year, title in [("b1", "Le Guin", 1969, "The Left Hand of Darkness"),
                                     ("b2", "Le Guin", 1974, "The Dispossessed"), ("b3", "Le Guin", 1974, "A Wizard"),
                                     ("b4", "Le Guin", 1985, "Always Coming Home"), ("b5", "Le Guin", 999, "Early"),
                                     ("b9", "Butler", 1979, "Kindred")]:
        server.gql(create, {"input": {"id": id_, "isbn": id_, "author": author, "year": year, "title": title}})

    def ids(key: dict | None = None, **extra: object) -> list[str]:
        body = server.gql(BOOKS_BY_AUTHOR, {"author": "Le Guin", "key": key, **extra})
        assert "errors" not in body, body
        return [item["id"] for item in body["data"]["booksByAuthorAndYearAndTitle"]["items"]]

    # "999#Early" sorts after "1985#…": the composite key orders as text, not by year.
    assert ids() == ["b1", "b3", "b2", "b4", "b5"], ids()
    assert ids(dir="DESC") == ["b5", "b4", "b2", "b3", "b1"], ids(dir="DESC")
    # A partial eq is `sortKey = "1974"`: no stored key is only a year.
    assert ids({"eq": {"year": 1974}}) == [], ids({"eq": {"year": 1974}})
    assert ids({"eq": {"year": 1974, "title": "A Wizard"}}) == ["b3"]
    # A prefix compares as the shorter string: "1974#…" > "1974".
    assert ids({"gt": {"year": 1974}}) == ["b3", "b2", "b4", "b5"], ids({"gt": {"year": 1974}})
    assert ids({"ge": {"year": 1974}}) == ["b3", "b2", "b4", "b5"]
    assert ids({"le": {"year": 1974}}) == ["b1"], ids({"le": {"year": 1974}})
    assert ids({"lt": {"year": 1974, "title": "B"}}) == ["b1", "b3"]
    # Numbers as text: "999#Early" > "1990", "1985#…" < "1990".
    assert ids({"gt": {"year": 1990}}) == ["b5"], ids({"gt": {"year": 1990}})
    assert ids({"between": [{"year": 1970}, {"year": 1980}]}) == ["b3", "b2"]
    assert ids({"between": [{"year": 1974}, {"year": 1974, "title": "B"}]}) == ["b3"]
    assert ids({"beginsWith": {"year": 19}}) == ["b1", "b3", "b2", "b4"]
    assert ids({"beginsWith": {"year": 9}}) == ["b5"]
    # Paging keeps the text order.
    first = server.gql(BOOKS_BY_AUTHOR, {"author": "Le Guin", "key": {"gt": {"year": 1974}}, "limit": 2})
    page = first["data"]["booksByAuthorAndYearAndTitle"]
    assert [i["id"] for i in page["items"]] == ["b3", "b2"] and page["nextToken"], first
    assert ids({"gt": {"year": 1974}}, limit=2, next=page["nextToken"]) == ["b4", "b5"]


@check(schema="index-secondary")
def composite_sort_key_arguments_are_validated(server: Server) -> None:
    """validateCompositeKeyArguments: fields left to right, one operation, two between elements."""

    def error(key: dict) -> dict:
        body = server.gql(BOOKS_BY_AUTHOR, {"author": "Le Guin", "key": key})
        assert body["data"] == {"booksByAuthorAndYearAndTitle": None}, body
        assert body["errors"][0]["errorType"] == "InvalidArgumentsError", body
        return body["errors"][0]["message"]

    assert error({"eq": {"title": "A"}}) == (
        "When providing argument 'yearTitle.eq.title' you must also provide 'yearTitle.eq.year'.")
    assert error({"beginsWith": {"title": "A"}}) == (
        "When providing argument 'yearTitle.beginsWith.title' you must also provide 'yearTitle.beginsWith.year'.")
    assert error({"between": [{"year": 1970}, {"title": "Z"}]}) == (
        "When providing argument 'yearTitle.between[1].title' you must also provide 'yearTitle.between[1].year'.")
    assert error({"between": [{"year": 1970}]}) == "Argument 'yearTitle.between' expects exactly two elements."
    assert error({"ge": {"year": 1970}, "le": {"year": 1980}}) == (
        "Argument yearTitle must specify at most one key condition operation.")


@check(schema="composite-key-non-string-components")
def composite_primary_sort_key_needs_the_partition_key(server: Server) -> None:
    listing = """query L($id: ID, $key: ModelReadingPrimaryCompositeKeyConditionInput) {
      listReadings(id: $id, takenAtDayTimeSeqPriorityValue: $key) { items { seq } } }"""
    key = {"beginsWith": {"takenAt": "2026-11-30T10:00:00.000Z"}}
    for variables in ({"key": key}, {"id": "  ", "key": key}):
        body = server.gql(listing, variables)
        assert body["data"] == {"listReadings": None}, body
        assert body["errors"][0]["errorType"] == "InvalidArgumentsError", body
        assert body["errors"][0]["message"] == (
            "When providing argument 'takenAtDayTimeSeqPriorityValue' you must also provide 'id'."), body


@check(schema="composite-key-sort-key-named-id")
def composite_key_sort_key_named_id(server: Server) -> None:
    create = "mutation C($input: CreateTaskInput!) { createTask(input: $input) { ownerId id title } }"
    server.gql(create, {"input": {"ownerId": "ann", "id": "t1", "title": "Ann's"}})
    server.gql(create, {"input": {"ownerId": "bob", "id": "t1", "title": "Bob's"}})
    get = "query G($ownerId: String!, $id: ID!) { getTask(ownerId: $ownerId, id: $id) { title } }"
    assert server.gql(get, {"ownerId": "bob", "id": "t1"})["data"]["getTask"] == {"title": "Bob's"}
    update = "mutation U($input: UpdateTaskInput!) { updateTask(input: $input) { ownerId id title } }"
    updated = server.gql(update, {"input": {"ownerId": "ann", "id": "t1", "title": "Ann's v2"}})["data"]["updateTask"]
    assert updated == {"ownerId": "ann", "id": "t1", "title": "Ann's v2"}, updated
    missing_key = server.gql(update, {"input": {"id": "t1", "title": "x"}})
    assert missing_key["errors"][0]["errorType"] == "ValidationError", missing_key
    delete = "mutation D($input: DeleteTaskInput!) { deleteTask(input: $input) { title } }"
    assert server.gql(delete, {"input": {"ownerId": "bob", "id": "t1"}})["data"]["deleteTask"] == {"title": "Bob's"}
    assert server.gql(get, {"ownerId": "ann", "id": "t1"})["data"]["getTask"] == {"title": "Ann's v2"}
    listing = "query L($o: String, $id: ModelIDKeyConditionInput) { listTasks(ownerId: $o, id: $id) { items { title } } }"
    assert server.gql(listing, {"o": "ann", "id": {"beginsWith": "t"}})["data"]["listTasks"]["items"] == [{"title": "Ann's v2"}]


@check(schema="has-one-belongs-to-composite-keys")
def has_one_and_belongs_to_with_composite_keys(server: Server) -> None:
    server.gql("mutation { createTeam(input: {teamId: \"t\", name: \"Red\", teamProjectProjectId: \"p\", teamProjectName: \"Apollo\"}) { teamId } }")
    server.gql("mutation { createProject(input: {projectId: \"p\", name: \"Apollo\", projectTeamTeamId: \"t\", projectTeamName: \"Red\"}) { projectId } }")
    got = server.gql("""{ getProject(projectId: "p", name: "Apollo") { name team { teamId name __typename
      project { projectId name } } } }""")
    assert got["data"]["getProject"] == {"name": "Apollo", "team": {"teamId": "t", "name": "Red", "__typename": "Team",
                                         "project": {"projectId": "p", "name": "Apollo"}}}, got


@check(schema="list-nullability-with-lazy-belongs-to")
def implicit_foreign_key_and_non_model_lists(server: Server) -> None:
    server.gql("mutation { createBoard(input: {id: \"b\"}) { id } }")
    create = "mutation C($input: CreateCardInput!) { createCard(input: $input) { id labelsA { text } scores } }"
    for number in range(3):
        card = {"id": f"c{number}", "labelsA": [{"text": "a"}, None], "labelsC": [], "scores": [number, None], "boardCardsId": "b"}
        created = server.gql(create, {"input": card})["data"]["createCard"]
        assert created == {"id": f"c{number}", "labelsA": [{"text": "a"}, None], "scores": [number, None]}, created
    board = server.gql("{ getBoard(id: \"b\") { cards(limit: 2) { items { id board { id } } nextToken } } }")
    cards = board["data"]["getBoard"]["cards"]
    assert [c["id"] for c in cards["items"]] == ["c0", "c1"] and cards["nextToken"], cards
    assert cards["items"][0]["board"] == {"id": "b"}, cards
    rejected = server.gql(create, {"input": {"id": "x", "labelsA": [], "labelsC": [None], "scores": []}})
    assert rejected.get("data") is None and rejected["errors"], rejected


@check(schema="references-has-one-has-many")
def references_relations(server: Server) -> None:
    server.gql("mutation { createCustomer(input: {id: \"cu\", name: \"Ann\"}) { id } }")
    server.gql("mutation { createCart(input: {id: \"ca\", items: [\"x\"], customerId: \"cu\"}) { id } }")
    for number in range(3):
        server.gql("mutation C($i: CreateOrderInput!) { createOrder(input: $i) { id } }",
                   {"i": {"id": f"o{number}", "total": number + 0.5, "customerId": "cu"}})
    got = server.gql("""{ getCustomer(id: "cu") { activeCart { id customer { name } }
      orders(filter: {total: {ge: 1}}, sortDirection: DESC) { items { id total } nextToken } } }""")
    assert got["data"]["getCustomer"] == {
        "activeCart": {"id": "ca", "customer": {"name": "Ann"}},
        "orders": {"items": [{"id": "o2", "total": 2.5}, {"id": "o1", "total": 1.5}], "nextToken": None},
    }, got


@check(schema="has-many-explicit-fk-index")
def uni_directional_has_many_through_index(server: Server) -> None:
    server.gql("mutation { createPost(input: {id: \"p\", title: \"T\"}) { id } }")
    for content in ["b", "a", "c"]:
        server.gql("mutation C($i: CreateCommentInput!) { createComment(input: $i) { id } }",
                   {"i": {"postID": "p", "content": content}})
    got = server.gql("""{ getPost(id: "p") { comments(content: {gt: "a"}) { items { content } } } }""")
    assert got["data"]["getPost"]["comments"]["items"] == [{"content": "b"}, {"content": "c"}], got
    by_index = server.gql("""{ commentsByPostIDAndContent(postID: "p", sortDirection: DESC, limit: 1) { items { content } nextToken } }""")
    page = by_index["data"]["commentsByPostIDAndContent"]
    assert page["items"] == [{"content": "c"}] and page["nextToken"], by_index


@check(schema="default-value-required-in-create-input")
def default_fills_an_optional_field(server: Server) -> None:
    # The manifest's default (`email: AWSEmail @default(value: "local-part@domain-part")`) fills a
    # create that leaves the field out; a required field with @default must be sent.
    made = server.gql('mutation { createTest(input: {stringValue: "given"}) { stringValue email } }')
    assert made["data"]["createTest"] == {"stringValue": "given", "email": "local-part@domain-part"}, made
    refused = server.gql("mutation { createTest(input: {}) { id } }")
    assert refused["errors"][0]["errorType"] == "ValidationError", refused


@check(schema="feature-tour")
def feature_tour(server: Server) -> None:
    blog = server.gql("""mutation C($i: CreateBlogInput!) { createBlog(input: $i) { id name status statuses
      address { street city tags } views meta stamp createdOn } }""", {"i": {
        "id": "b", "name": "Mine", "status": "DRAFT", "statuses": ["DRAFT", "PUBLISHED"],
        "address": {"street": "Main", "tags": ["x"]}, "views": 7, "meta": "{\"a\": 1}",
        "stamp": 1700000000}})["data"]["createBlog"]
    # `name: String! @default(value: "Untitled")` stays required in CreateBlogInput (the transformer's rule).
    assert blog["name"] == "Mine" and blog["address"] == {"street": "Main", "city": None, "tags": ["x"]}, blog
    missing = server.gql("mutation { createBlog(input: {id: \"x\"}) { id } }")
    assert missing["errors"][0]["errorType"] == "ValidationError", missing
    assert blog["createdOn"].endswith("Z") and blog["meta"] == "{\"a\": 1}", blog
    bad_json = server.gql("mutation { createBlog(input: {name: \"n\", meta: \"{not json\"}) { id } }")
    assert bad_json["errors"][0]["errorType"] == "ValidationError", bad_json
    by_views = server.gql("{ blogsByViews(views: 7) { items { id } } }")
    assert by_views["data"]["blogsByViews"]["items"] == [{"id": "b"}], by_views
    enum_filter = server.gql("{ listBlogs(filter: {status: {eq: DRAFT}, statuses: {contains: PUBLISHED}}) { items { id } } }")
    assert enum_filter["data"]["listBlogs"]["items"] == [{"id": "b"}], enum_filter
    create_post = "mutation C($i: CreateBlogPostInput!) { createBlogPost(input: $i) { slug publishedOn } }"
    for slug, day in [("a", "2026-01-02"), ("b", "2026-01-01"), ("c", "2026-01-01")]:
        server.gql(create_post, {"i": {"slug": slug, "publishedOn": day, "title": "Same", "blogPostsId": "b"}})
    by_title = server.gql("""{ blogPostsByTitleAndPublishedOnAndSlug(title: "Same",
      publishedOnSlug: {beginsWith: {publishedOn: "2026-01-01"}}, sortDirection: DESC) { items { slug } } }""")
    assert by_title["data"]["blogPostsByTitleAndPublishedOnAndSlug"]["items"] == [{"slug": "c"}, {"slug": "b"}], by_title
    fetched = server.gql("""{ fetchBlogPost(slug: "a", publishedOn: "2026-01-02") { blog { id posts { items { slug } } } } }""")
    assert [p["slug"] for p in fetched["data"]["fetchBlogPost"]["blog"]["posts"]["items"]] == ["a", "b", "c"], fetched
    server.gql("mutation { createTag(input: {id: \"t\", label: \"swift\"}) { id } }")
    server.gql("mutation { createBlogTag(input: {blogId: \"b\", tagId: \"t\"}) { id } }")
    tags = server.gql("{ getBlog(id: \"b\") { tags { items { tag { label blogs { items { blog { id } } } } } } } }")
    assert tags["data"]["getBlog"]["tags"]["items"] == [{"tag": {"label": "swift", "blogs": {"items": [{"blog": {"id": "b"}}]}}}], tags


@check
def peer_reset_is_quiet(server: Server) -> None:
    """A client that resets its connection (RST: closed with unread data, before or after the
    answer) is not a server error: no traceback on stderr, and the server keeps answering."""
    import socket
    import struct

    body = json.dumps({"query": "{ listPost4V2s { items { id } } }"}).encode()
    request = (f"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-api-key: {API_KEY}\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    for wait in (0.3, 0.0):  # reset an idle keep-alive connection after the answer; reset before it
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(request)
        time.sleep(wait)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    time.sleep(0.5)
    assert server.gql("{ listPost4V2s { items { id } } }") == {"data": {"listPost4V2s": {"items": []}}}
    server.process.terminate()
    server.process.wait(timeout=10)
    errors = server.process.stderr.read()
    assert "Traceback" not in errors and "Exception occurred" not in errors, errors


@check
def realtime_protocol(server: Server) -> None:
    """The real-time endpoint (realtime.py): ack, start_ack, a filtered data event with the
    subscriber's selection set, a rejected document, an unauthorized start, stop/complete."""
    import base64

    from websockets.sync.client import connect

    header = base64.b64encode(json.dumps({"host": f"127.0.0.1:{server.port}", "x-api-key": API_KEY}).encode()).decode()
    url = f"ws://127.0.0.1:{server.port}/graphql/realtime?header={header}&payload=e30="
    with connect(url, subprotocols=["graphql-ws"], open_timeout=10) as ws:
        def receive() -> dict:
            while True:
                message = json.loads(ws.recv(timeout=10))
                if message["type"] != "ka":
                    return message

        ws.send(json.dumps({"type": "connection_init"}))
        ack = receive()
        assert ack == {"type": "connection_ack", "payload": {"connectionTimeoutMs": 300000}}, ack
        auth = {"x-api-key": API_KEY}
        query = "subscription S($filter: ModelSubscriptionPost4V2FilterInput) { onCreatePost4V2(filter: $filter) { title __typename } }"
        start = {"query": query, "variables": {"filter": {"title": {"beginsWith": "a"}}}}
        ws.send(json.dumps({"type": "start", "id": "s1", "payload": {"data": json.dumps(start), "extensions": {"authorization": auth}}}))
        assert receive() == {"type": "start_ack", "id": "s1"}
        bad = {"query": "subscription { onCreatePost4V2 { nope } }"}
        ws.send(json.dumps({"type": "start", "id": "s2", "payload": {"data": json.dumps(bad), "extensions": {"authorization": auth}}}))
        rejected = receive()
        assert rejected["type"] == "error" and rejected["id"] == "s2", rejected
        assert rejected["payload"]["errors"][0]["errorType"] == "ValidationError", rejected
        ws.send(json.dumps({"type": "start", "id": "s3", "payload": {"data": json.dumps(start), "extensions": {"authorization": {}}}}))
        unauthorized = receive()
        assert unauthorized["payload"]["errors"][0]["errorType"] == "UnauthorizedException", unauthorized
        for title in ("b", "abc"):
            server.gql("mutation C($i: CreatePost4V2Input!) { createPost4V2(input: $i) { id } }", {"i": {"title": title}})
        event = receive()
        assert event == {"type": "data", "id": "s1", "payload": {"data": {"onCreatePost4V2": {"title": "abc", "__typename": "Post4V2"}}}}, event
        ws.send(json.dumps({"type": "stop", "id": "s1"}))
        assert receive() == {"type": "complete", "id": "s1"}


# ---------------------------------------------------------------------------
# The versioned data source (versioned.py) on Generated/sync/sync-blog (AUTOMERGE); the other
# handlers run on a copy of it whose manifest names another conflictHandler.

SYNC_FIELDS = "id title rating tags _version _deleted _lastChangedAt"
S_CREATE = f"mutation C($input: CreatePostInput!) {{ createPost(input: $input) {{ {SYNC_FIELDS} }} }}"
S_UPDATE = f"mutation U($input: UpdatePostInput!) {{ updatePost(input: $input) {{ {SYNC_FIELDS} }} }}"
S_DELETE = f"mutation D($input: DeletePostInput!) {{ deletePost(input: $input) {{ {SYNC_FIELDS} }} }}"
S_GET = f"query G($id: ID!) {{ getPost(id: $id) {{ {SYNC_FIELDS} }} }}"
S_SYNC = f"""query S($limit: Int, $nextToken: String, $lastSync: AWSTimestamp, $filter: ModelPostFilterInput) {{
  syncPosts(limit: $limit, nextToken: $nextToken, lastSync: $lastSync, filter: $filter) {{
    items {{ {SYNC_FIELDS} }} nextToken startedAt }} }}"""


def hook(server: Server, path: str, payload: dict | None = None) -> object:
    data = json.dumps(payload).encode() if payload is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", data=data, method="POST" if data else "GET")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def sync_all(server: Server, last_sync: int | None = None, limit: int = 100) -> tuple[list[dict], list[int], int]:
    """Every page of syncPosts: (items, page sizes, startedAt); asserts one startedAt for all pages."""
    items, sizes, started, token = [], [], None, None
    while True:
        page = server.gql(S_SYNC, {"limit": limit, "nextToken": token, "lastSync": last_sync})
        assert "errors" not in page, page
        page = page["data"]["syncPosts"]
        assert started in (None, page["startedAt"]), (started, page)
        started = page["startedAt"]
        items += page["items"]
        sizes.append(len(page["items"]))
        token = page["nextToken"]
        if token is None:
            return items, sizes, started


def variant(server: Server, handler: str) -> Server:
    """A second server on the sync schema with `handler` as every model's conflict handler."""
    source = schema_path("sync/sync-blog")
    manifest = source.with_name("schema.local.json").read_text(encoding="utf-8").replace('"AUTOMERGE"', f'"{handler}"')
    directory = Path(tempfile.mkdtemp(prefix="graphql-selftest-sync-"))
    (directory / "schema.api.graphql").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    (directory / "schema.local.json").write_text(manifest, encoding="utf-8")
    return Server(directory / "schema.api.graphql", directory / "data.sqlite")


@check(schema="sync/sync-blog")
def base_sync_pages_come_from_the_scan_of_its_first_page(server: Server) -> None:
    for number in range(4):
        server.gql(S_CREATE, {"input": {"id": f"s{number}", "title": f"t{number}"}})
    time.sleep(0.01)  # the creates are older than the sync's startedAt (milliseconds)
    first = server.gql(S_SYNC, {"limit": 2})["data"]["syncPosts"]
    assert [i["id"] for i in first["items"]] == ["s0", "s1"], first
    # Made during the sync: not in its later pages (the scan was read at the first page) ...
    time.sleep(0.01)
    server.gql(S_CREATE, {"input": {"id": "s1a", "title": "during"}})
    server.gql(S_UPDATE, {"input": {"id": "s2", "title": "changed", "_version": 1}})
    rest = server.gql(S_SYNC, {"limit": 2, "nextToken": first["nextToken"]})["data"]["syncPosts"]
    assert [(i["id"], i["title"], i["_version"]) for i in rest["items"]] == [("s2", "t2", 1), ("s3", "t3", 1)], rest
    assert rest["nextToken"] is None and rest["startedAt"] == first["startedAt"], rest
    # ... but in the delta sync from its startedAt.
    delta, _, _ = sync_all(server, last_sync=first["startedAt"])
    assert [(i["id"], i["title"]) for i in delta] == [("s1a", "during"), ("s2", "changed")], delta
    # A fresh base sync reads the table again.
    base, _, _ = sync_all(server, limit=2)
    assert [i["id"] for i in base] == ["s0", "s1", "s1a", "s2", "s3"], base


@check(schema="sync/sync-blog")
def versioned_items_and_tombstones(server: Server) -> None:
    before = int(time.time() * 1000)
    post = server.gql(S_CREATE, {"input": {"id": "v1", "title": "A", "_version": 7}})["data"]["createPost"]
    assert post["_version"] == 1 and post["_deleted"] is None, post  # the input's _version is ignored
    assert before <= post["_lastChangedAt"] <= int(time.time() * 1000), post
    updated = server.gql(S_UPDATE, {"input": {"id": "v1", "title": "B", "_version": 1}})["data"]["updatePost"]
    assert updated["_version"] == 2 and updated["title"] == "B", updated
    assert updated["_lastChangedAt"] >= post["_lastChangedAt"], updated
    deleted = server.gql(S_DELETE, {"input": {"id": "v1", "_version": 2}})["data"]["deletePost"]
    assert deleted["_version"] == 3 and deleted["_deleted"] is True and deleted["title"] == "B", deleted
    tombstone = server.gql(S_GET, {"id": "v1"})["data"]["getPost"]
    assert tombstone == deleted, tombstone
    again = server.gql(S_UPDATE, {"input": {"id": "v1", "title": "C", "_version": 3}})
    assert again["errors"][0]["errorType"] == "ConflictUnhandled" and again["errors"][0]["data"]["_deleted"] is True, again
    # Past the tombstone TTL (30 days by default) the tombstone is gone from the base table.
    hook(server, "/test/sync/clock", {"offsetMs": 31 * 24 * 3600 * 1000})
    assert server.gql(S_GET, {"id": "v1"})["data"]["getPost"] is not None  # expiry runs with writes and syncs
    items, _, _ = sync_all(server)
    assert items == [], items
    assert server.gql(S_GET, {"id": "v1"})["data"]["getPost"] is None


def versioned_write_is_atomic() -> None:
    """The base-table write and its delta-log entry are one transaction: when the second statement
    fails (as a `kill -9` between them would leave it), the first is rolled back too, and inside
    the seed hook's batch only the failed write is undone."""
    import sqlite3

    import server as server_module
    import versioned

    store = server_module.Store(":memory:")
    source = versioned.VersionedSource(store, {"Post": "AUTOMERGE"}, {"Post": ["id"]})
    source.create("Post", ["kept"], {"id": "kept", "title": "kept"})
    # The delta log refuses the next entry: the base table must not keep the item either.
    store.connection.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON delta_log WHEN NEW.key = '[\"lost\"]'"
        " BEGIN SELECT RAISE(ABORT, 'refused'); END")
    try:
        source.create("Post", ["lost"], {"id": "lost", "title": "lost"})
        raise AssertionError("the refused delta-log insert did not raise")
    except sqlite3.IntegrityError:
        pass
    assert store.get("Post", ["lost"]) is None, store.get("Post", ["lost"])
    assert [e["item"]["id"] for e in source.delta_entries()] == ["kept"], source.delta_entries()
    # Inside an outer transaction (the seed hook's batch) only the failed write is undone.
    store.connection.execute("BEGIN")
    source.create("Post", ["batch"], {"id": "batch", "title": "batch"})
    try:
        source.create("Post", ["lost"], {"id": "lost", "title": "lost"})
    except sqlite3.IntegrityError:
        pass
    store.connection.execute("COMMIT")
    assert sorted(r["id"] for r in store.all("Post")) == ["batch", "kept"], store.all("Post")
    assert [e["item"]["id"] for e in source.delta_entries()] == ["kept", "batch"], source.delta_entries()


@check(schema="sync/sync-blog")
def sync_query_base_then_delta(server: Server) -> None:
    for number in range(5):
        server.gql(S_CREATE, {"input": {"id": f"p{number}", "title": f"t{number}"}})
    items, sizes, started = sync_all(server, limit=2)
    assert [i["id"] for i in items] == ["p0", "p1", "p2", "p3", "p4"] and sizes == [2, 2, 1], (items, sizes)
    assert started <= int(time.time() * 1000), started
    server.gql(S_UPDATE, {"input": {"id": "p1", "title": "x", "_version": 1}})
    server.gql(S_UPDATE, {"input": {"id": "p1", "title": "y", "_version": 2}})
    server.gql(S_DELETE, {"input": {"id": "p3", "_version": 1}})
    delta, _, delta_started = sync_all(server, last_sync=started, limit=1)
    assert [(i["id"], i["_version"], i["title"], i["_deleted"]) for i in delta] == [
        ("p1", 3, "y", None), ("p3", 2, "t3", True)], delta  # the latest change of each item, in change order
    assert delta_started >= started
    nothing, _, _ = sync_all(server, last_sync=delta_started + 1)
    assert nothing == [], nothing
    log = hook(server, "/test/sync/delta")
    assert [(e["model"], e["item"]["id"], e["item"]["_version"]) for e in log][-3:] == [
        ("Post", "p1", 2), ("Post", "p1", 3), ("Post", "p3", 2)], log
    # A lastSync older than the delta TTL (30 minutes by default) gets the base table: every item, tombstones too.
    hook(server, "/test/sync/clock", {"offsetMs": 31 * 60 * 1000})
    base, _, _ = sync_all(server, last_sync=started)
    assert [(i["id"], i["_deleted"]) for i in base] == [
        ("p0", None), ("p1", None), ("p2", None), ("p3", True), ("p4", None)], base
    assert hook(server, "/test/sync/delta") == []  # the expired changes left the delta log
    bad = server.gql(S_SYNC, {"nextToken": "bm90LWEtdG9rZW4"})
    assert bad["errors"][0]["errorType"] == "InvalidNextTokenException", bad
    filtered = server.gql(S_SYNC, {"filter": {"title": {"eq": "y"}}})["data"]["syncPosts"]["items"]
    assert [i["id"] for i in filtered] == ["p1"], filtered


@check(schema="sync/sync-blog")
def automerge_conflicts(server: Server) -> None:
    server.gql(S_CREATE, {"input": {"id": "m", "title": "A", "tags": ["x"]}})
    server.gql(S_UPDATE, {"input": {"id": "m", "title": "B", "_version": 1}})
    stale = server.gql(S_UPDATE, {"input": {"id": "m", "title": "C", "rating": 5, "tags": ["y", "x"], "_version": 1}})
    merged = stale["data"]["updatePost"]
    assert "errors" not in stale, stale
    # Scalars keep the stored value, a null field takes the incoming one, lists concatenate (duplicates kept).
    assert (merged["title"], merged["rating"], merged["tags"], merged["_version"]) == ("B", 5, ["x", "y", "x"], 3), merged
    missing = server.gql(S_UPDATE, {"input": {"id": "m", "title": "D"}})["data"]["updatePost"]
    assert (missing["title"], missing["_version"]) == ("B", 4), missing  # no _version: a conflict, merged
    conflict = server.gql(S_DELETE, {"input": {"id": "m", "_version": 2}})
    assert conflict["data"]["deletePost"] is None, conflict
    assert conflict["errors"][0]["errorType"] == "ConflictUnhandled", conflict
    assert conflict["errors"][0]["data"]["_version"] == 4, conflict


@check(schema="sync/sync-blog")
def optimistic_concurrency_conflicts(server: Server) -> None:
    optimistic = variant(server, "OPTIMISTIC_CONCURRENCY")
    try:
        optimistic.gql(S_CREATE, {"input": {"id": "o", "title": "A"}})
        optimistic.gql(S_UPDATE, {"input": {"id": "o", "title": "B", "_version": 1}})
        stale = optimistic.gql(S_UPDATE, {"input": {"id": "o", "title": "C", "_version": 1}})
        assert stale["data"] == {"updatePost": None}, stale
        error = stale["errors"][0]
        assert error["errorType"] == "ConflictUnhandled" and error["path"] == ["updatePost"], error
        assert (error["data"]["title"], error["data"]["_version"]) == ("B", 2), error
        assert optimistic.gql(S_GET, {"id": "o"})["data"]["getPost"]["title"] == "B"
        retried = optimistic.gql(S_UPDATE, {"input": {"id": "o", "title": "C", "_version": 2}})["data"]["updatePost"]
        assert (retried["title"], retried["_version"]) == ("C", 3), retried
    finally:
        optimistic.stop()


@check(schema="sync/sync-blog")
def lambda_conflict_handler(server: Server) -> None:
    handled = variant(server, "LAMBDA")
    try:
        handled.gql(S_CREATE, {"input": {"id": "l", "title": "A", "rating": 1}})
        handled.gql(S_UPDATE, {"input": {"id": "l", "title": "B", "_version": 1}})
        rejected = handled.gql(S_UPDATE, {"input": {"id": "l", "title": "C", "_version": 1}})
        assert rejected["errors"][0]["errorType"] == "ConflictUnhandled", rejected  # the default answer: reject
        hook(handled, "/test/sync/lambda", {"action": "accept"})
        accepted = handled.gql(S_UPDATE, {"input": {"id": "l", "title": "C", "_version": 1}})["data"]["updatePost"]
        assert (accepted["title"], accepted["rating"], accepted["_version"]) == ("C", 1, 3), accepted
        hook(handled, "/test/sync/lambda", {"action": "replace", "item": {"id": "other", "title": "R", "rating": 9}})
        replaced = handled.gql(S_UPDATE, {"input": {"id": "l", "title": "D", "_version": 1}})["data"]["updatePost"]
        assert (replaced["id"], replaced["title"], replaced["rating"], replaced["_version"]) == ("l", "R", 9, 4), replaced
        hook(handled, "/test/sync/lambda", {"action": "accept"})
        gone = handled.gql(S_DELETE, {"input": {"id": "l", "_version": 1}})["data"]["deletePost"]
        assert gone["_deleted"] is True and gone["_version"] == 5, gone
        calls = hook(handled, "/test/sync/lambda")
        assert [(c["operation"], c["incoming"].get("title"), c["existing"]["_version"]) for c in calls] == [
            ("UPDATE", "C", 2), ("UPDATE", "C", 2), ("UPDATE", "D", 3), ("DELETE", None, 4)], calls
    finally:
        handled.stop()


@check(schema="sync/sync-blog")
def subscriptions_carry_sync_fields(server: Server) -> None:
    import base64

    from websockets.sync.client import connect

    header = base64.b64encode(json.dumps({"host": f"127.0.0.1:{server.port}", "x-api-key": API_KEY}).encode()).decode()
    url = f"ws://127.0.0.1:{server.port}/graphql/realtime?header={header}&payload=e30="
    with connect(url, subprotocols=["graphql-ws"], open_timeout=10) as ws:
        def receive() -> dict:
            while True:
                message = json.loads(ws.recv(timeout=10))
                if message["type"] != "ka":
                    return message

        ws.send(json.dumps({"type": "connection_init"}))
        assert receive()["type"] == "connection_ack"
        start = {"query": "subscription { onDeletePost { id _version _deleted _lastChangedAt } }", "variables": {}}
        ws.send(json.dumps({"type": "start", "id": "d", "payload": {"data": json.dumps(start), "extensions": {"authorization": {"x-api-key": API_KEY}}}}))
        assert receive() == {"type": "start_ack", "id": "d"}
        server.gql(S_CREATE, {"input": {"id": "s", "title": "A"}})
        deleted = server.gql(S_DELETE, {"input": {"id": "s", "_version": 1}})["data"]["deletePost"]
        event = receive()["payload"]["data"]["onDeletePost"]
        assert event == {"id": "s", "_version": 2, "_deleted": True, "_lastChangedAt": deleted["_lastChangedAt"]}, event


def _jwt(claims: dict, secret: str) -> str:
    """An HS256 JWT (RFC 7519) with `claims`, as auth.py verifies it."""
    import base64
    import hashlib
    import hmac

    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    head = part(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = part(json.dumps(claims).encode())
    signature = hmac.new(secret.encode(), f"{head}.{payload}".encode(), hashlib.sha256).digest()
    return f"{head}.{payload}.{part(signature)}"


def _sigv4(host: str, path: str, body: bytes, access_key: str, secret: str, token: str, region: str) -> dict:
    """The headers of a SigV4-signed POST (service appsync), as AppSync's real-time guide signs the
    handshake (`{}` to /graphql/connect) and HTTP requests: host, x-amz-date, x-amz-security-token."""
    import hashlib
    import hmac

    amz_date = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    day = amz_date[:8]
    headers = {"host": host, "x-amz-date": amz_date, "x-amz-security-token": token}
    signed = sorted(headers)
    canonical = "\n".join(["POST", path, "", "".join(f"{n}:{headers[n]}\n" for n in signed), ";".join(signed),
                           hashlib.sha256(body).hexdigest()])
    scope = f"{day}/{region}/appsync/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + secret).encode()
    for step in (day, region, "appsync", "aws4_request"):
        key = hmac.new(key, step.encode(), hashlib.sha256).digest()
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    headers["authorization"] = (f"AWS4-HMAC-SHA256 Credential={access_key}/{scope}, SignedHeaders={';'.join(signed)}, "
                                f"Signature={signature}")
    return headers


@check(schema="auth-rules")
def auth_modes_over_http_and_realtime(server: Server) -> None:
    """--auth-config (auth.py): each mode allowed and denied over HTTP (401 for a bad credential),
    and the same credentials in the real-time handshake (connection_ack / connection_error)."""
    import base64

    from websockets.sync.client import connect

    pool, oidc = "https://cognito-idp.local/pool", "https://oidc.local"
    config = {
        "apiKey": "da2-good",
        "userPools": {"secret": "pool-secret", "issuer": pool, "audience": "client-1"},
        "oidc": {"secret": "oidc-secret", "issuer": oidc, "audience": "oidc-client"},
        "lambda": {"tokens": {"allow-token": {"isAuthorized": True}, "deny-token": {"isAuthorized": False}}},
        "iam": {"region": "us-east-1", "credentials": [
            {"accessKeyId": "AKIDSELFTEST", "secretAccessKey": "iam-secret", "sessionToken": "session-1"}]},
    }
    directory = Path(tempfile.mkdtemp(prefix="selftest-auth-"))
    (directory / "auth.json").write_text(json.dumps(config))
    secured = Server(schema_path("auth-rules"), directory / "auth.sqlite", api_key=None,
                     auth_config=directory / "auth.json")
    try:
        host = f"127.0.0.1:{secured.port}"
        exp = int(time.time()) + 600

        def user_pool(secret: str = "pool-secret", expires: int = exp) -> dict:
            # A user pool token always has `sub` (Document's owner rule reads it: without it the
            # rules make no filter and the read is refused, callers_without_a_filter_are_refused).
            return {"authorization": _jwt({"iss": pool, "aud": "client-1", "cognito:username": "ann", "sub": "sub-ann",
                                           "exp": expires}, secret)}

        def open_id(secret: str = "oidc-secret") -> dict:
            # `user_id`: Letter's owner rule reads it (without it, no filter: refused).
            return {"authorization": _jwt({"iss": oidc, "aud": "oidc-client", "sub": "u1", "user_id": "u1", "exp": exp},
                                          secret)}

        def iam(secret: str = "iam-secret", path: str = "/graphql", body: bytes = b"{}") -> dict:
            return _sigv4(host, path, body, "AKIDSELFTEST", secret, "session-1", "us-east-1")

        query = '{ getDocument(id: "none") { id } }'
        body = json.dumps({"query": query, "variables": {}}).encode()
        modes = [  # (mode, allowed headers, denied headers) for HTTP
            ("apiKey", {"x-api-key": "da2-good"}, {"x-api-key": "da2-bad"}),
            ("userPools", user_pool(), user_pool(expires=exp - 1200)),
            ("lambda", {"authorization": "allow-token"}, {"authorization": "deny-token"}),
            ("iam", iam(body=body), iam(secret="wrong", body=body)),
        ]
        for mode, allowed, denied in modes:
            status, answer = secured.post(query, headers=allowed, api_key=None)
            assert status == 200 and answer == {"data": {"getDocument": None}}, (mode, status, answer)
            status, answer = secured.post(query, headers=denied, api_key=None)
            assert status == 401 and answer["errors"][0]["errorType"].endswith("Exception"), (mode, status, answer)
        # OIDC authenticates, but no field of this schema allows it: AppSync's field-level shape.
        status, answer = secured.post(query, headers=open_id(), api_key=None)
        assert status == 200 and answer["errors"][0]["errorType"] == "Unauthorized", answer
        status, answer = secured.post(query, headers=open_id("forged"), api_key=None)
        assert status == 401, (status, answer)
        # A model whose @auth rules name OIDC (Letter): the same token reads it.
        status, answer = secured.post('{ getLetter(id: "none") { id } }', headers=open_id(), api_key=None)
        assert status == 200 and answer == {"data": {"getLetter": None}}, (status, answer)

        def handshake(header: dict) -> dict:
            encoded = base64.b64encode(json.dumps({"host": host, **header}).encode()).decode()
            url = f"ws://{host}/graphql/realtime?header={encoded}&payload=e30="
            with connect(url, subprotocols=["graphql-ws"], open_timeout=10) as ws:
                ws.send(json.dumps({"type": "connection_init"}))
                return json.loads(ws.recv(timeout=10))

        handshakes = [
            ("apiKey", {"x-api-key": "da2-good"}, {"x-api-key": "da2-bad"}),
            ("userPools", user_pool(), user_pool(secret="forged")),
            ("oidc", open_id(), open_id("forged")),
            ("lambda", {"authorization": "allow-token"}, {"authorization": "deny-token"}),
            ("iam", iam(path="/graphql/connect"), iam(secret="wrong", path="/graphql/connect")),
        ]
        for mode, allowed, denied in handshakes:
            ack = handshake(allowed)
            assert ack["type"] == "connection_ack", (mode, ack)
            refused = handshake(denied)
            assert refused["type"] == "connection_error", (mode, refused)
            assert refused["payload"]["errors"][0]["errorType"] == "UnauthorizedException", (mode, refused)
    finally:
        secured.stop()


POOL = "https://cognito-idp.local/pool"
CREATE_MEMO = "mutation C($input: CreateMemoInput!) { createMemo(input: $input) { id owner } }"
UPDATE_MEMO = "mutation U($input: UpdateMemoInput!) { updateMemo(input: $input) { id title } }"
GET_MEMO = "query G($id: ID!) { getMemo(id: $id) { id title } }"


class SecuredAuthServer:
    """A server on the auth-rules schema with a user pool and an API key (auth.py), for the checks
    of issue 15's fresh-user faults; `with SecuredAuthServer() as (server, user): ...`."""

    def __init__(self, schema: str = "auth-rules", **extra: object) -> None:
        self.schema = schema
        self.extra = extra  # more config entries (e.g. `modelRules` replacing the manifest's)

    def __enter__(self) -> tuple[Server, object]:
        config = {"apiKey": "da2-good", "userPools": {"secret": "pool-secret", "issuer": POOL, "audience": "client-1"},
                  **self.extra}
        directory = Path(tempfile.mkdtemp(prefix="selftest-auth-faults-"))
        (directory / "auth.json").write_text(json.dumps(config))
        self.server = Server(schema_path(self.schema), directory / "auth.sqlite", api_key=None,
                             auth_config=directory / "auth.json")
        exp = int(time.time()) + 600

        def user(claims: dict) -> dict:
            # A user pool ID token always carries `sub`: `sub-<username>` unless `claims` give one
            # (`"sub": None` leaves it out).
            if "cognito:username" in claims and "sub" not in claims:
                claims = {**claims, "sub": f"sub-{claims['cognito:username']}"}
            claims = {name: value for name, value in claims.items() if not (name == "sub" and value is None)}
            return {"authorization": _jwt({"iss": POOL, "aud": "client-1", "exp": exp, **claims}, "pool-secret")}

        return self.server, user

    def __exit__(self, *exc: object) -> None:
        self.server.stop()


def _call(server: Server, query: str, variables: dict, headers: dict) -> dict:
    status, answer = server.post(query, variables, headers=headers, api_key=None)
    assert status == 200, (status, answer)
    return answer


def _refused(answer: dict, field: str, message: str) -> None:
    assert answer["data"] == {field: None}, answer
    assert [(e["errorType"], e["message"]) for e in answer["errors"]] == [("Unauthorized", message)], answer


def _stored(server: Server, model: str, record_id: str) -> dict:
    return next(r for r in hook(server, f"/test/records/{model}") if r["id"] == record_id)


@check(schema="auth-rules")
def field_rules_on_create_and_update_inputs(server: Server) -> None:
    """A field's @auth rules apply to create and update inputs, as the transformer's auth resolvers
    build them (allowedFields / nullAllowedFields per role): `secret` is owner-only and `reviewNote`
    owner (read, update) or Admin, so neither the API key nor another user writes them, the owner may
    not create `reviewNote` nor null it (no delete), and a refusal is "Unauthorized on [field]"."""
    with SecuredAuthServer() as (secured, user):
        key = {"x-api-key": "da2-good"}
        ann, bob = user({"cognito:username": "ann"}), user({"cognito:username": "bob"})
        admin = user({"cognito:username": "ada", "cognito:groups": ["Admin"]})
        assert _call(secured, CREATE_MEMO, {"input": {"id": "m1", "title": "A", "secret": "s"}}, ann)["data"] == {
            "createMemo": {"id": "m1", "owner": "ann"}}
        for value in ("mine", None):
            _refused(_call(secured, UPDATE_MEMO, {"input": {"id": "m1", "secret": value}}, key), "updateMemo",
                     "Unauthorized on [secret]")
        _refused(_call(secured, UPDATE_MEMO, {"input": {"id": "m1", "secret": "x"}}, bob), "updateMemo",
                 "Not Authorized to access updateMemo on type Mutation")
        _refused(_call(secured, CREATE_MEMO, {"input": {"id": "k1", "title": "K", "secret": "k"}}, key), "createMemo",
                 "Unauthorized on [secret]")
        _refused(_call(secured, CREATE_MEMO, {"input": {"id": "m2", "title": "B", "reviewNote": "n"}}, ann),
                 "createMemo", "Unauthorized on [reviewNote]")
        assert _call(secured, UPDATE_MEMO, {"input": {"id": "m1", "title": "A2"}}, key)["data"] == {
            "updateMemo": {"id": "m1", "title": "A2"}}
        assert _call(secured, UPDATE_MEMO, {"input": {"id": "m1", "reviewNote": "n1"}}, ann)["data"]["updateMemo"]
        _refused(_call(secured, UPDATE_MEMO, {"input": {"id": "m1", "reviewNote": None}}, ann), "updateMemo",
                 "Unauthorized on [reviewNote]")
        _refused(_call(secured, UPDATE_MEMO, {"input": {"id": "m1", "reviewNote": None, "secret": None}}, admin),
                 "updateMemo", "Unauthorized on [secret]")
        stored = _stored(secured, "Memo", "m1")
        assert (stored["secret"], stored["reviewNote"], stored["title"]) == ("s", "n1", "A2"), stored
        # An Admin's create fills the owner too (`populateOwnerFieldForStaticGroupAuth`, on by
        # default): the static group allows all but `secret`, and the owner rule, filling `owner`
        # with the caller, allows the rest.
        assert _call(secured, CREATE_MEMO, {"input": {"id": "m2", "title": "B", "reviewNote": "n"}}, admin)["data"] == {
            "createMemo": {"id": "m2", "owner": "ada"}}
        assert _stored(secured, "Memo", "m2")["owner"] == "sub-ada::ada"
        assert _call(secured, UPDATE_MEMO, {"input": {"id": "m2", "reviewNote": None}}, admin)["data"]["updateMemo"]


@check(schema="auth-relations")
def relationship_fields_apply_the_related_models_rules(server: Server) -> None:
    """A relationship field reads the related model under that model's @auth rules (the
    transformer's protectRelationalResolver): Post and Cover are owner-only, so bob never reads
    ann's through `Comment.post`, `Blog.posts`, `Post.comments`'s inverse or `Cover.post`, in a
    query or in a mutation's response: a belongsTo/hasOne reads as null with Unauthorized, a
    hasMany keeps only bob's records, and the API key (which may only create a Post) gets null
    with Unauthorized on every Post or Cover relationship."""
    with SecuredAuthServer("auth-relations") as (secured, user):
        key = {"x-api-key": "da2-good"}
        ann, bob = user({"cognito:username": "ann"}), user({"cognito:username": "bob"})

        def create(model: str, input_: dict, caller: dict, selection: str = "id") -> dict:
            answer = _call(secured, f"mutation C($input: Create{model}Input!) {{ create{model}(input: $input) {{ {selection} }} }}",
                           {"input": input_}, caller)
            assert "errors" not in answer, answer
            return answer["data"][f"create{model}"]

        create("Blog", {"id": "b1", "name": "B"}, key)
        create("Post", {"id": "p-ann", "title": "ann's", "blogPostsId": "b1"}, ann)
        create("Post", {"id": "p-bob", "title": "bob's", "blogPostsId": "b1"}, bob)
        create("Cover", {"id": "c-ann", "url": "u", "coverPostId": "p-ann"}, ann)
        create("Comment", {"id": "k1", "content": "on ann's", "postCommentsId": "p-ann"}, bob)
        get_comment = "query G($id: ID!) { getComment(id: $id) { id post { id title } } }"
        _hidden_relation = {"data": {"getComment": {"id": "k1", "post": None}},
                            "errors": [("Unauthorized", "Not Authorized to access post on type Comment", ["getComment", "post"])]}

        def shape(answer: dict) -> dict:
            return {"data": answer["data"], "errors": [(e["errorType"], e["message"], e["path"]) for e in answer.get("errors", [])]}

        assert shape(_call(secured, get_comment, {"id": "k1"}, bob)) == _hidden_relation
        assert shape(_call(secured, get_comment, {"id": "k1"}, key)) == _hidden_relation
        assert _call(secured, get_comment, {"id": "k1"}, ann) == {
            "data": {"getComment": {"id": "k1", "post": {"id": "p-ann", "title": "ann's"}}}}
        # A mutation's response reads its relationships under the same rules.
        made = _call(secured, "mutation C($input: CreateCommentInput!) { createComment(input: $input) { id post { id } } }",
                     {"input": {"id": "k2", "content": "again", "postCommentsId": "p-ann"}}, bob)
        assert shape(made) == {"data": {"createComment": {"id": "k2", "post": None}}, "errors": [
            ("Unauthorized", "Not Authorized to access post on type Comment", ["createComment", "post"])]}, made
        get_blog = "query G($id: ID!) { getBlog(id: $id) { id posts { items { id title } } } }"
        assert _call(secured, get_blog, {"id": "b1"}, bob) == {
            "data": {"getBlog": {"id": "b1", "posts": {"items": [{"id": "p-bob", "title": "bob's"}]}}}}
        assert _call(secured, get_blog, {"id": "b1"}, ann) == {
            "data": {"getBlog": {"id": "b1", "posts": {"items": [{"id": "p-ann", "title": "ann's"}]}}}}
        assert shape(_call(secured, get_blog, {"id": "b1"}, key)) == {
            "data": {"getBlog": {"id": "b1", "posts": None}},
            "errors": [("Unauthorized", "Not Authorized to access posts on type Blog", ["getBlog", "posts"])]}
        # hasOne: bob's own post with ann's cover; belongsTo from a Cover bob owns to ann's post.
        _call(secured, "mutation U($input: UpdatePostInput!) { updatePost(input: $input) { id } }",
              {"input": {"id": "p-bob", "postCoverId": "c-ann"}}, bob)
        create("Cover", {"id": "c-bob", "url": "v", "coverPostId": "p-ann"}, bob)
        get_post = "query G($id: ID!) { getPost(id: $id) { id cover { id url } } }"
        assert shape(_call(secured, get_post, {"id": "p-bob"}, bob)) == {
            "data": {"getPost": {"id": "p-bob", "cover": None}},
            "errors": [("Unauthorized", "Not Authorized to access cover on type Post", ["getPost", "cover"])]}
        get_cover = "query G($id: ID!) { getCover(id: $id) { id post { id } } }"
        assert shape(_call(secured, get_cover, {"id": "c-bob"}, bob)) == {
            "data": {"getCover": {"id": "c-bob", "post": None}},
            "errors": [("Unauthorized", "Not Authorized to access post on type Cover", ["getCover", "post"])]}
        assert _call(secured, get_cover, {"id": "c-ann"}, ann) == {
            "data": {"getCover": {"id": "c-ann", "post": {"id": "p-ann"}}}}


@check(schema="auth-rules")
def token_without_identity_claim_owns_nothing(server: Server) -> None:
    """A token without the identity claim (no cognito:username, no sub) gets the transformer's
    `___xamznone____` owner value: it matches no record, not even one whose owner field is null."""
    with SecuredAuthServer() as (secured, user):
        admin = user({"cognito:username": "ada", "cognito:groups": ["Admin"]})
        nobody = user({})
        # The API key has no owner rule, so its create leaves the owner null.
        assert _call(secured, CREATE_MEMO, {"input": {"id": "m2", "title": "B"}}, {"x-api-key": "da2-good"})["data"] == {
            "createMemo": {"id": "m2", "owner": None}}
        assert _stored(secured, "Memo", "m2").get("owner") is None
        _refused(_call(secured, GET_MEMO, {"id": "m2"}, nobody), "getMemo", "Not Authorized to access getMemo on type Query")
        # No identity claim and no groups: the owner and dynamic group rules make no filter, so the
        # list is refused (the transformer's `$util.unauthorized()`), not an empty page.
        _refused(_call(secured, "{ listMemos { items { id } } }", {}, nobody), "listMemos",
                 "Not Authorized to access listMemos on type Query")
        _refused(_call(secured, UPDATE_MEMO, {"input": {"id": "m2", "title": "mine"}}, nobody), "updateMemo",
                 "Not Authorized to access updateMemo on type Mutation")
        _refused(_call(secured, CREATE_MEMO, {"input": {"id": "m3", "title": "C"}}, nobody), "createMemo",
                 "Not Authorized to access createMemo on type Mutation")
        assert _call(secured, GET_MEMO, {"id": "m2"}, admin)["data"] == {"getMemo": {"id": "m2", "title": "B"}}


@check(schema="auth-rules")
def callers_without_a_filter_are_refused(server: Server) -> None:
    """A caller no static role lets in, whose owner and dynamic group rules make no filter (a
    static group it lacks; a token without the identity claim or the groups claim), is refused
    with Unauthorized — list, index query, get and subscription start alike — as the transformer's
    resolvers do (`generateAuthFilter` adds no filter, then `$util.unauthorized()`); a caller
    with a filter still gets its own records (an empty page when it owns none)."""
    import base64

    from websockets.sync.client import connect

    only_admins = {"Memo": [{"allow": "groups", "groups": ["Admin"], "provider": "userPools"}]}
    with SecuredAuthServer(modelRules=only_admins, fieldRules={}) as (secured, user):
        ann = user({"cognito:username": "ann"})
        admin = user({"cognito:username": "ada", "cognito:groups": ["Admin"]})
        assert _call(secured, CREATE_MEMO, {"input": {"id": "m1", "title": "A"}}, admin)["data"]["createMemo"]["id"] == "m1"
        for query, field, variables in [("{ listMemos { items { id } } }", "listMemos", {}),
                                        ('{ memosByTitle(title: "A") { items { id } } }', "memosByTitle", {}),
                                        (GET_MEMO, "getMemo", {"id": "m1"})]:
            _refused(_call(secured, query, variables, ann), field, f"Not Authorized to access {field} on type Query")
        assert _call(secured, "{ listMemos { items { id } } }", {}, admin)["data"] == {"listMemos": {"items": [{"id": "m1"}]}}
        host = f"127.0.0.1:{secured.port}"

        def start(headers: dict) -> dict:
            auth = {"host": host, **headers}
            header = base64.b64encode(json.dumps(auth).encode()).decode()
            with connect(f"ws://{host}/graphql/realtime?header={header}&payload=e30=", subprotocols=["graphql-ws"],
                         open_timeout=10) as ws:
                def receive() -> dict:
                    while True:
                        message = json.loads(ws.recv(timeout=10))
                        if message["type"] != "ka":
                            return message

                ws.send(json.dumps({"type": "connection_init"}))
                assert receive()["type"] == "connection_ack"
                payload = {"data": json.dumps({"query": "subscription { onCreateMemo { id } }"}),
                           "extensions": {"authorization": auth}}
                ws.send(json.dumps({"type": "start", "id": "s1", "payload": payload}))
                return receive()

        refused = start(ann)
        assert refused["type"] == "error" and refused["id"] == "s1", refused
        assert refused["payload"]["errors"][0]["message"] == "Not Authorized to access onCreateMemo on type Subscription", refused
        assert start(admin)["type"] == "start_ack"
    # Owner and dynamic group rules (the manifest's Memo): a token without the username and sub
    # and without groups makes no filter and is refused; one with a username gets its own records.
    with SecuredAuthServer() as (secured, user):
        nobody, bob = user({"sub": None}), user({"cognito:username": "bob"})
        _refused(_call(secured, "{ listMemos { items { id } } }", {}, nobody), "listMemos",
                 "Not Authorized to access listMemos on type Query")
        assert _call(secured, "{ listMemos { items { id } } }", {}, bob)["data"] == {"listMemos": {"items": []}}


@check(schema="auth-rules")
def delete_needs_delete_on_every_field(server: Server) -> None:
    """As the transformer has it (protectDeleteResolver: "only roles with full delete on every
    field can delete"; the delete field's directives from getRolesPerOperation('delete', true)),
    Memo, whose `secret` allows only the owner and whose `reviewNote` gives the owner no delete,
    can be deleted by no one: `deleteMemo` carries no @aws_* directive and is refused in every mode;
    a Document, whose rules give its owner every operation, is deleted by its owner."""
    with SecuredAuthServer() as (secured, user):
        ann = user({"cognito:username": "ann"})
        admin = user({"cognito:username": "ada", "cognito:groups": ["Admin"]})
        _call(secured, CREATE_MEMO, {"input": {"id": "m1", "title": "A", "secret": "s"}}, ann)
        delete = "mutation D($input: DeleteMemoInput!) { deleteMemo(input: $input) { id } }"
        for caller in (ann, admin, {"x-api-key": "da2-good"}):
            _refused(_call(secured, delete, {"input": {"id": "m1"}}, caller), "deleteMemo",
                     "Not Authorized to access deleteMemo on type Mutation")
        assert _stored(secured, "Memo", "m1")["title"] == "A"
        schema = schema_path("auth-rules").read_text(encoding="utf-8")
        assert "  deleteMemo(input: DeleteMemoInput!, condition: ModelMemoConditionInput): Memo\n" in schema
        create = "mutation C($input: CreateDocumentInput!) { createDocument(input: $input) { id author } }"
        owner = user({"cognito:username": "ann", "sub": "sub-ann"})
        assert _call(secured, create, {"input": {"id": "d1", "title": "T"}}, owner)["data"] == {
            "createDocument": {"id": "d1", "author": "sub-ann"}}
        deleted = _call(secured, "mutation D($input: DeleteDocumentInput!) { deleteDocument(input: $input) { id } }",
                        {"input": {"id": "d1"}}, owner)
        assert deleted == {"data": {"deleteDocument": {"id": "d1"}}}, deleted

@check(schema="auth-rules")
def owner_is_sub_and_username(server: Server) -> None:
    """The transformer's default identity claim `sub::username`: a create stores
    `"<sub>::<username>"` and the owner field reads as the username; a stored owner equal to that,
    to the username or to the sub is the caller's (records, lists, subscription owner arguments); a
    token whose username is missing or not a string owns nothing (no fall back to `sub`), so
    a token whose `sub` is another user's username cannot take that user's records; nor can a token
    whose username or sub holds `::` (it would stand for another user's whole owner value). An
    empty username is kept, as the transformer's `$util.defaultIfNull` keeps "" (no fall back to
    `cognito:username`): the owner is `"<sub>::"`; "" never matches alone, and a claim whose parts
    are all empty (or a one-part claim that is empty) owns nothing."""
    from websockets.sync.client import connect
    import base64

    with SecuredAuthServer() as (secured, user):
        key = {"x-api-key": "da2-good"}
        ann = user({"cognito:username": "ann"})
        assert _call(secured, CREATE_MEMO, {"input": {"id": "m1", "title": "A"}}, ann)["data"] == {
            "createMemo": {"id": "m1", "owner": "ann"}}
        assert _stored(secured, "Memo", "m1")["owner"] == "sub-ann::ann"
        assert _call(secured, "{ listMemos { items { id owner } } }", {}, ann)["data"] == {
            "listMemos": {"items": [{"id": "m1", "owner": "ann"}]}}
        # The collision: a token whose sub is "ann" but that has no username owns nothing.
        impostors = {
            "no username, sub 'ann'": user({"sub": "ann"}),
            "username false": user({"cognito:username": False, "sub": "ann"}),
            "username 0": user({"cognito:username": 0, "sub": "ann"}),
            "username a list": user({"cognito:username": ["ann"], "sub": "ann"}),
            "no sub": user({"cognito:username": "ann", "sub": None}),
            # A part holding the separator would let one claim stand for the whole value.
            "username 'sub-ann::ann'": user({"cognito:username": "sub-ann::ann", "sub": "sub-m"}),
            "sub 'sub-ann::ann'": user({"cognito:username": "x", "sub": "sub-ann::ann"}),
        }
        for name, impostor in impostors.items():
            _refused(_call(secured, GET_MEMO, {"id": "m1"}, impostor), "getMemo",
                     "Not Authorized to access getMemo on type Query")
            # Owning nothing and naming no group, it makes no auth filter: the list is refused.
            _refused(_call(secured, "{ listMemos { items { id } } }", {}, impostor), "listMemos",
                     "Not Authorized to access listMemos on type Query")
            _refused(_call(secured, CREATE_MEMO, {"input": {"id": "x9", "title": "X"}}, impostor), "createMemo",
                     "Not Authorized to access createMemo on type Mutation")
        # `username` is read before `cognito:username`, as getOwnerClaim does.
        plain = user({"username": "ann", "sub": "sub-ann"})
        assert _call(secured, GET_MEMO, {"id": "m1"}, plain)["data"]["getMemo"]["id"] == "m1"
        # An empty username is a value, as `$util.defaultIfNull` keeps "": no fall back to
        # `cognito:username` (this token is not ann), and the owner is "<sub>::", which reads as "".
        empty = user({"username": "", "cognito:username": "ann", "sub": "sub-e"})
        _refused(_call(secured, GET_MEMO, {"id": "m1"}, empty), "getMemo", "Not Authorized to access getMemo on type Query")
        assert _call(secured, CREATE_MEMO, {"input": {"id": "m6", "title": "E"}}, empty)["data"] == {
            "createMemo": {"id": "m6", "owner": ""}}
        assert _stored(secured, "Memo", "m6")["owner"] == "sub-e::"
        assert _call(secured, GET_MEMO, {"id": "m6"}, empty)["data"] == {"getMemo": {"id": "m6", "title": "E"}}
        assert _call(secured, "{ listMemos { items { id } } }", {}, empty)["data"] == {"listMemos": {"items": [{"id": "m6"}]}}
        # "" alone names no one: another token with an empty username, ann, and a token whose
        # parts are all empty do not own m6 (the last owns nothing at all).
        for name, other in {"empty username, other sub": user({"username": "", "sub": "sub-f"}), "ann": ann,
                            "all parts empty": user({"username": "", "sub": ""})}.items():
            _refused(_call(secured, GET_MEMO, {"id": "m6"}, other), "getMemo", "Not Authorized to access getMemo on type Query")
            listed = _call(secured, "{ listMemos { items { id } } }", {}, other)
            if name == "all parts empty":  # owns nothing, names no group: no auth filter, refused
                _refused(listed, "listMemos", "Not Authorized to access listMemos on type Query")
            else:
                assert {"id": "m6"} not in listed["data"]["listMemos"]["items"], (name, listed)
        _refused(_call(secured, CREATE_MEMO, {"input": {"id": "x8", "title": "X"}}, user({"username": "", "sub": ""})),
                 "createMemo", "Not Authorized to access createMemo on type Mutation")
        # A claim of one part that is empty owns nothing: Document's `identityClaim: "sub"`.
        create_doc = "mutation C($input: CreateDocumentInput!) { createDocument(input: $input) { id author } }"
        _refused(_call(secured, create_doc, {"input": {"id": "dx", "title": "T"}}, user({"cognito:username": "x", "sub": ""})),
                 "createDocument", "Not Authorized to access createDocument on type Mutation")
        # Subscriptions: the owner argument may be the whole value, the username or the sub.
        host = f"127.0.0.1:{secured.port}"
        header = base64.b64encode(json.dumps({"host": host, "x-api-key": "da2-good"}).encode()).decode()
        with connect(f"ws://{host}/graphql/realtime?header={header}&payload=e30=", subprotocols=["graphql-ws"],
                     open_timeout=10) as ws:
            def receive() -> dict:
                while True:
                    message = json.loads(ws.recv(timeout=10))
                    if message["type"] != "ka":
                        return message

            ws.send(json.dumps({"type": "connection_init"}))
            assert receive()["type"] == "connection_ack"
            token = ann["authorization"]
            for number, (owner, answer) in enumerate(
                    (("sub-ann::ann", "start_ack"), ("ann", "start_ack"), ("sub-ann", "start_ack"), ("bob", "error"))):
                data = json.dumps({"query": "subscription S($o: String) { onCreateMemo(owner: $o) { id } }",
                                   "variables": {"o": owner}})
                ws.send(json.dumps({"type": "start", "id": f"s{number}", "payload": {
                    "data": data, "extensions": {"authorization": {"host": host, "Authorization": token}}}}))
                got = receive()
                assert got["type"] == answer and got["id"] == f"s{number}", (owner, got)
            # A token with an empty username subscribes as its whole owner value "<sub>::" (the
            # argument the sync engine passes then) or its sub; "" alone is not its owner value.
            for number, (owner, answer) in enumerate((("sub-e::", "start_ack"), ("sub-e", "start_ack"), ("", "error")), 4):
                data = json.dumps({"query": "subscription S($o: String) { onCreateMemo(owner: $o) { id } }",
                                   "variables": {"o": owner}})
                ws.send(json.dumps({"type": "start", "id": f"s{number}", "payload": {
                    "data": data, "extensions": {"authorization": {"host": host, "Authorization": empty["authorization"]}}}}))
                got = receive()
                assert got["type"] == answer and got["id"] == f"s{number}", (owner, got)
            ws.send(json.dumps({"type": "stop", "id": "s0"}))
            ws.send(json.dumps({"type": "stop", "id": "s2"}))
            ws.send(json.dumps({"type": "stop", "id": "s4"}))
            ws.send(json.dumps({"type": "stop", "id": "s5"}))
            for _ in range(4):
                assert receive()["type"] == "complete"
            _call(secured, CREATE_MEMO, {"input": {"id": "m5", "title": "E"}}, ann)
            event = receive()
            assert event["type"] == "data" and event["id"] == "s1", event
            assert event["payload"]["data"] == {"onCreateMemo": {"id": "m5"}}, event

    # Stored owners that are the bare username or the bare sub (an owner field in the input,
    # Document's `author`, under the default claim, written by a static group) are the caller's.
    rules = {"Document": [{"allow": "owner", "provider": "userPools", "ownerField": "author"},
                          {"allow": "groups", "provider": "userPools", "groups": ["Editors"]}]}
    with SecuredAuthServer(modelRules=rules, fieldRules={}) as (secured, user):
        key = user({"cognito:username": "eve", "cognito:groups": ["Editors"]})
        create = "mutation C($input: CreateDocumentInput!) { createDocument(input: $input) { id author } }"
        for record_id, author in (("d1", "ann"), ("d2", "sub-ann"), ("d3", "sub-ann::ann"), ("d4", "bob"),
                                  ("d5", "sub-bob::ann")):
            _call(secured, create, {"input": {"id": record_id, "title": "T", "author": author}}, key)
        ann = user({"cognito:username": "ann"})
        listed = _call(secured, "{ listDocuments { items { id author } } }", {}, ann)["data"]["listDocuments"]["items"]
        assert sorted((item["id"], item["author"]) for item in listed) == [
            ("d1", "ann"), ("d2", "sub-ann"), ("d3", "ann")], listed
        assert _call(secured, create, {"input": {"id": "d6", "title": "T"}}, ann)["data"] == {
            "createDocument": {"id": "d6", "author": "ann"}}
        assert _stored(secured, "Document", "d6")["author"] == "sub-ann::ann"
        # A token whose sub is "ann", without a username, takes none of them (d1 was the collision):
        # owning nothing and naming no group, it makes no auth filter and is refused.
        impostor = user({"sub": "ann"})
        _refused(_call(secured, "{ listDocuments { items { id } } }", {}, impostor), "listDocuments",
                 "Not Authorized to access listDocuments on type Query")


@check(schema="auth-rules")
def field_only_roles_pass_the_model_check(server: Server) -> None:
    """A role only field rules name (Review: `Auditors` read and update `summary`, the API key reads
    `id` and `summary`) passes the model-level check of each operation it may perform on some
    field, as the transformer's access-control matrix has it (getRolesPerOperation), and then
    reaches only those fields: `body` reads as null with Unauthorized and is refused in an input;
    a delete needs delete on every field; a user no rule names is refused at the model level."""
    with SecuredAuthServer() as (secured, user):
        key = {"x-api-key": "da2-good"}
        ann, bob = user({"cognito:username": "ann"}), user({"cognito:username": "bob"})
        auditor = user({"cognito:username": "ada", "cognito:groups": ["Auditors"]})
        create = "mutation C($input: CreateReviewInput!) { createReview(input: $input) { id owner } }"
        update = "mutation U($input: UpdateReviewInput!) { updateReview(input: $input) { id summary } }"
        get = "query G($id: ID!) { getReview(id: $id) { id summary body owner } }"
        assert _call(secured, create, {"input": {"id": "r1", "summary": "Fine", "body": "Long"}}, ann)["data"] == {
            "createReview": {"id": "r1", "owner": "ann"}}
        for caller in (auditor, key):
            answer = _call(secured, get, {"id": "r1"}, caller)
            assert answer["data"] == {"getReview": {"id": "r1", "summary": "Fine", "body": None, "owner": "ann"}}, answer
            assert [(e["path"], e["message"]) for e in answer["errors"]] == [
                (["getReview", "body"], "Not Authorized to access body on type Review")], answer
            listed = _call(secured, "{ listReviews { items { id summary } } }", {}, caller)["data"]
            assert listed == {"listReviews": {"items": [{"id": "r1", "summary": "Fine"}]}}, listed
        assert _call(secured, update, {"input": {"id": "r1", "summary": "Audited"}}, auditor)["data"] == {
            "updateReview": {"id": "r1", "summary": "Audited"}}
        _refused(_call(secured, update, {"input": {"id": "r1", "body": "Rewritten"}}, auditor), "updateReview",
                 "Unauthorized on [body]")
        _refused(_call(secured, update, {"input": {"id": "r1", "summary": "By key"}}, key), "updateReview",
                 "Not Authorized to access updateReview on type Mutation")
        delete = "mutation D($input: DeleteReviewInput!) { deleteReview(input: $input) { id } }"
        _refused(_call(secured, delete, {"input": {"id": "r1"}}, auditor), "deleteReview",
                 "Not Authorized to access deleteReview on type Mutation")
        _refused(_call(secured, get, {"id": "r1"}, bob), "getReview", "Not Authorized to access getReview on type Query")
        stored = _stored(secured, "Review", "r1")
        assert (stored["summary"], stored["body"]) == ("Audited", "Long"), stored
        assert _call(secured, get, {"id": "r1"}, ann)["data"] == {
            "getReview": {"id": "r1", "summary": "Audited", "body": "Long", "owner": "ann"}}


@check(schema="auth-rules")
def implicit_fields_are_outside_the_matrix(server: Server) -> None:
    """The fields the transformer adds to a model (the timestamps, an owner field it inserts) are
    not in its access-control matrix (`collectFieldNames` runs on the fields as written), so they
    get no field resolver: every role that passes the model-level check reads them, a role of
    Review's field rules too (Auditors, the API key), while `body` (in the matrix, under the model's
    owner rule) stays null with Unauthorized. A caller no rule names reads none of them. They are
    not in the create/update inputs, so no one writes them."""
    with SecuredAuthServer() as (secured, user):
        key = {"x-api-key": "da2-good"}
        ann, bob = user({"cognito:username": "ann"}), user({"cognito:username": "bob"})
        auditor = user({"cognito:username": "ada", "cognito:groups": ["Auditors"]})
        create = "mutation C($input: CreateReviewInput!) { createReview(input: $input) { id } }"
        _call(secured, create, {"input": {"id": "r1", "summary": "Fine", "body": "Long"}}, ann)
        stored = _stored(secured, "Review", "r1")
        get = "query G($id: ID!) { getReview(id: $id) { id owner createdAt updatedAt body } }"
        implicit = {"id": "r1", "owner": "ann", "createdAt": stored["createdAt"], "updatedAt": stored["updatedAt"]}
        assert _call(secured, get, {"id": "r1"}, ann)["data"] == {"getReview": {**implicit, "body": "Long"}}
        for caller in (auditor, key):
            answer = _call(secured, get, {"id": "r1"}, caller)
            assert answer["data"] == {"getReview": {**implicit, "body": None}}, answer
            assert [(e["path"], e["message"]) for e in answer["errors"]] == [
                (["getReview", "body"], "Not Authorized to access body on type Review")], answer
            listed = _call(secured, "{ listReviews { items { owner createdAt } } }", {}, caller)["data"]
            assert listed == {"listReviews": {"items": [{"owner": "ann", "createdAt": stored["createdAt"]}]}}, listed
        _refused(_call(secured, get, {"id": "r1"}, bob), "getReview", "Not Authorized to access getReview on type Query")
        for name, value in (("owner", "ada"), ("createdAt", "2020-01-01T00:00:00.000Z")):
            update = "mutation U($input: UpdateReviewInput!) { updateReview(input: $input) { id } }"
            answer = _call(secured, update, {"input": {"id": "r1", name: value}}, auditor)
            assert answer.get("data") is None and "UpdateReviewInput" in answer["errors"][0]["message"], answer
        assert _stored(secured, "Review", "r1")["owner"] == stored["owner"]


CREATE_DOSSIER = "mutation C($input: CreateDossierInput!) { createDossier(input: $input) { id owner } }"
UPDATE_DOSSIER = "mutation U($input: UpdateDossierInput!) { updateDossier(input: $input) { id } }"
GET_DOSSIER = "query G($id: ID!) { getDossier(id: $id) { id title hidden } }"


def _hidden(answer: dict) -> tuple:
    """`getDossier`'s `hidden` and the paths of the errors beside it."""
    return answer["data"]["getDossier"]["hidden"], [e["path"] for e in answer.get("errors") or []]


@check(schema="auth-rules")
def owner_filled_by_a_field_rule_alone(server: Server) -> None:
    """Dossier: the private and public rules cover every field but `hidden`, whose only rule is the
    owner's (read, create). As the transformer's create resolver does it, a user's create runs the
    owner rule while the caller is not yet authorized for `hidden`: the owner field is filled with
    the caller and the rule's fields allowed, so ann's create succeeds with `hidden` (and without
    it) and ann is the owner. Denied: the API key writing `hidden` (no owner rule of its mode), an
    update of `hidden` (no `update`), another user or the API key reading it (null, Unauthorized)."""
    with SecuredAuthServer() as (secured, user):
        key = {"x-api-key": "da2-good"}
        ann, bob = user({"cognito:username": "ann"}), user({"cognito:username": "bob"})
        assert _call(secured, CREATE_DOSSIER, {"input": {"id": "n1", "title": "A", "hidden": "h"}}, ann) == {
            "data": {"createDossier": {"id": "n1", "owner": "ann"}}}
        assert _call(secured, CREATE_DOSSIER, {"input": {"id": "n2", "title": "B"}}, ann) == {
            "data": {"createDossier": {"id": "n2", "owner": "ann"}}}
        assert (_stored(secured, "Dossier", "n1")["owner"], _stored(secured, "Dossier", "n1")["hidden"]) == ("sub-ann::ann", "h")
        assert _stored(secured, "Dossier", "n2")["owner"] == "sub-ann::ann"
        _refused(_call(secured, CREATE_DOSSIER, {"input": {"id": "k1", "title": "K", "hidden": "k"}}, key), "createDossier",
                 "Unauthorized on [hidden]")
        assert _call(secured, CREATE_DOSSIER, {"input": {"id": "k2", "title": "K"}}, key) == {
            "data": {"createDossier": {"id": "k2", "owner": None}}}
        for value in ("changed", None):
            _refused(_call(secured, UPDATE_DOSSIER, {"input": {"id": "n1", "hidden": value}}, ann), "updateDossier",
                     "Unauthorized on [hidden]")
        assert _call(secured, UPDATE_DOSSIER, {"input": {"id": "n1", "title": "A2"}}, bob) == {"data": {"updateDossier": {"id": "n1"}}}
        assert _hidden(_call(secured, GET_DOSSIER, {"id": "n1"}, ann)) == ("h", [])
        for caller in (bob, key):
            assert _hidden(_call(secured, GET_DOSSIER, {"id": "n1"}, caller)) == (None, [["getDossier", "hidden"]])
        assert _stored(secured, "Dossier", "n1")["hidden"] == "h"


def relation_redaction_follows_the_transformers_table() -> None:
    """`auth.relation_redacted` on the 14 rule pairs of the auth transformer's
    `relational-field-redaction.test.ts` (primary model rules, related model rules, redacted),
    the relationship field without rules of its own; and a field rule that leaves a reader of the
    model out redacts the field whatever the related model's rules."""
    from auth import Access, relation_redacted

    rule = {
        "public apiKey": {"allow": "public", "provider": "apiKey"},
        "public iam": {"allow": "public", "provider": "iam"},
        "private userPools": {"allow": "private", "provider": "userPools"},
        "private oidc": {"allow": "private", "provider": "oidc"},
        "private iam": {"allow": "private", "provider": "iam"},
        "owner userPools": {"allow": "owner", "provider": "userPools", "ownerField": "owner"},
        "owner oidc": {"allow": "owner", "provider": "oidc", "ownerField": "owner"},
        "owner userPools claim": {"allow": "owner", "provider": "userPools", "ownerField": "owner", "identityClaim": "ssn"},
        "static groups userPools single": {"allow": "groups", "provider": "userPools", "groups": ["Admin"]},
        "static groups userPools multiple": {"allow": "groups", "provider": "userPools", "groups": ["Admin", "Dev"]},
        "static groups oidc single": {"allow": "groups", "provider": "oidc", "groups": ["Admin"]},
        "dynamic groups userPools": {"allow": "groups", "provider": "userPools", "groupsField": "singleGroup"},
        "dynamic groups oidc": {"allow": "groups", "provider": "oidc", "groupsField": "singleGroup"},
        "custom": {"allow": "custom", "provider": "function"},
    }
    cases = [
        (["public apiKey", "private userPools"], ["private userPools"], True),
        (["public apiKey", "owner userPools"], ["public apiKey", "owner userPools"], True),
        (["custom"], ["custom"], True),
        (["dynamic groups userPools"], ["dynamic groups userPools"], True),
        (["private userPools"], ["owner userPools"], True),
        (["static groups userPools multiple"], ["static groups userPools single"], True),
        (["private oidc", "dynamic groups userPools"], ["private oidc", "dynamic groups userPools"], True),
        (["private userPools", "owner userPools"], ["private userPools"], False),
        (["private oidc", "dynamic groups oidc"], ["private oidc", "dynamic groups oidc"], False),
        (["private userPools"], ["private userPools"], False),
        (["private oidc", "static groups oidc single"], ["private oidc", "static groups oidc single"], False),
        (["owner oidc"], ["owner userPools"], False),
        (["owner userPools"], ["owner userPools claim"], False),
        (["public iam"], ["private iam"], False),
    ]
    for primary, related, expected in cases:
        parent = Access([rule[name] for name in primary], {}, ["id", "secret", "related"])
        child = Access([rule[name] for name in related], {}, ["id", "secret"])
        got = relation_redacted(parent, child, "related")
        assert got == expected, (primary, related, got)
    # A field rule that leaves `private` out of the relationship field: redacted, the related
    # model's rules notwithstanding.
    parent = Access([rule["private userPools"]], {"related": [rule["owner userPools"]]}, ["id", "related"])
    assert relation_redacted(parent, Access([rule["private userPools"]], {}, ["id"]), "related")
    assert not relation_redacted(None, Access([rule["private userPools"]], {}, ["id"]), "related")


@check(schema="sync/sync-field-auth")
def relationship_fields_are_null_in_mutation_responses_where_readers_differ(server: Server) -> None:
    """`Page.folder` (a page is read by its owner and every signed-in user, a folder by its owner
    alone) is null in every create and update response and in each subscription event, with no
    error, as AppSync's relational field redaction has it; `getPage` reads it, and the foreign key
    `folderPagesId` is in every answer. `Folder.pages` (the same readers on both sides) is not
    redacted."""
    import base64

    from websockets.sync.client import connect

    relation_redaction_follows_the_transformers_table()
    with SecuredAuthServer("sync/sync-field-auth") as (secured, user):
        ann = user({"cognito:username": "ann"})
        host = f"127.0.0.1:{secured.port}"
        selection = "{ id text folderPagesId folder { id name } _version }"
        auth = {"host": host, **ann}
        header = base64.b64encode(json.dumps(auth).encode()).decode()
        ws = connect(f"ws://{host}/graphql/realtime?header={header}&payload=e30=", subprotocols=["graphql-ws"],
                     open_timeout=10)
        try:
            ws.send(json.dumps({"type": "connection_init"}))
            assert _received(ws)["type"] == "connection_ack"
            start = {"query": f"subscription {{ onCreatePage(owner: \"ann\") {selection} }}", "variables": {}}
            ws.send(json.dumps({"type": "start", "id": "s1",
                                "payload": {"data": json.dumps(start), "extensions": {"authorization": auth}}}))
            assert _received(ws) == {"type": "start_ack", "id": "s1"}
            folder = _call(secured, "mutation C($input: CreateFolderInput!) { createFolder(input: $input) "
                           "{ id name pages { items { id } } } }", {"input": {"id": "f1", "name": "F"}}, ann)
            assert folder == {"data": {"createFolder": {"id": "f1", "name": "F", "pages": {"items": []}}}}, folder
            create = f"mutation C($input: CreatePageInput!) {{ createPage(input: $input) {selection} }}"
            created = _call(secured, create, {"input": {"id": "p1", "text": "T", "folderPagesId": "f1"}}, ann)
            assert created == {"data": {"createPage": {"id": "p1", "text": "T", "folderPagesId": "f1", "folder": None,
                                                       "_version": 1}}}, created
            event = _received(ws)
            assert event["type"] == "data" and event["payload"]["data"]["onCreatePage"]["folder"] is None, event
            assert event["payload"]["data"]["onCreatePage"]["folderPagesId"] == "f1", event
            assert "errors" not in event["payload"], event
            update = f"mutation U($input: UpdatePageInput!) {{ updatePage(input: $input) {selection} }}"
            updated = _call(secured, update, {"input": {"id": "p1", "text": "T2", "_version": 1}}, ann)
            assert updated["data"]["updatePage"]["folder"] is None and "errors" not in updated, updated
            got = _call(secured, "query G($id: ID!) { getPage(id: $id) { folder { id name } } }", {"id": "p1"}, ann)
            assert got == {"data": {"getPage": {"folder": {"id": "f1", "name": "F"}}}}, got
        finally:
            ws.close()


@check(schema="sync/sync-field-auth")
def level_public_subscriptions_carry_the_mutations_response(server: Server) -> None:
    """`Note` has `@model(subscriptions: {level: public})`: the auth transformer gives its
    subscription fields no `@aws_*` directive and no owner argument, and no auth resolver
    (`protectSchemaOperations`, `getSubscriptionFieldNames`: level `on` only). So only the default
    mode subscribes, the rules refuse and filter nothing (bob, no owner, gets ann's notes), and an
    event is the mutation's response: `secret` as the mutation's caller could read it — ann's
    value in her create's event, null with no error in bob's rename's (his answer: null with
    `Unauthorized`)."""
    import base64

    from websockets.sync.client import connect

    def subscribe(secured: Server, headers: dict, fields: tuple) -> object:
        host = f"127.0.0.1:{secured.port}"
        auth = {"host": host, **headers}
        header = base64.b64encode(json.dumps(auth).encode()).decode()
        ws = connect(f"ws://{host}/graphql/realtime?header={header}&payload=e30=", subprotocols=["graphql-ws"],
                     open_timeout=10)
        ws.send(json.dumps({"type": "connection_init"}))
        assert _received(ws)["type"] == "connection_ack"
        for field in fields:
            start = {"query": f"subscription {{ {field} {{ id title secret }} }}", "variables": {}}
            ws.send(json.dumps({"type": "start", "id": field,
                                "payload": {"data": json.dumps(start), "extensions": {"authorization": auth}}}))
        return ws

    with SecuredAuthServer("sync/sync-field-auth") as (secured, user):
        ws = subscribe(secured, user({"cognito:username": "ann"}), ("onCreateNote",))
        try:
            refused = _received(ws)
            assert refused["type"] == "error" and refused["id"] == "onCreateNote", refused
            assert "Not Authorized to access onCreateNote on type Subscription" in json.dumps(refused), refused
        finally:
            ws.close()
    with SecuredAuthServer("sync/sync-field-auth", defaultMode="userPools") as (secured, user):
        ann, bob = user({"cognito:username": "ann"}), user({"cognito:username": "bob"})
        sockets = [subscribe(secured, headers, ("onCreateNote", "onUpdateNote")) for headers in (ann, bob)]
        try:
            for ws in sockets:
                assert [_received(ws) for _ in range(2)] == [{"type": "start_ack", "id": "onCreateNote"},
                                                             {"type": "start_ack", "id": "onUpdateNote"}]
            created = _call(secured, "mutation C($input: CreateNoteInput!) { createNote(input: $input) "
                            "{ id title secret _version } }", {"input": {"id": "n1", "title": "T", "secret": "s"}}, ann)
            assert created == {"data": {"createNote": {"id": "n1", "title": "T", "secret": "s", "_version": 1}}}, created
            renamed = _call(secured, "mutation U($input: UpdateNoteInput!) { updateNote(input: $input) "
                            "{ id title secret } }", {"input": {"id": "n1", "title": "T2", "_version": 1}}, bob)
            assert renamed["data"] == {"updateNote": {"id": "n1", "title": "T2", "secret": None}}, renamed
            assert [(e["errorType"], e["path"]) for e in renamed["errors"]] == [("Unauthorized", ["updateNote", "secret"])]
            assert _stored(secured, "Note", "n1")["secret"] == "s"
            for ws in sockets:
                events = {}
                while len(events) < 2:
                    message = _received(ws)
                    assert message["type"] == "data", message
                    events[message["id"]] = message["payload"]
                assert events == {
                    "onCreateNote": {"data": {"onCreateNote": {"id": "n1", "title": "T", "secret": "s"}}},
                    "onUpdateNote": {"data": {"onUpdateNote": {"id": "n1", "title": "T2", "secret": None}}},
                }, events
        finally:
            for ws in sockets:
                ws.close()


@check(schema="auth-rules")
def protected_fields_are_null_in_mutation_responses_and_events(server: Server) -> None:
    """Memo's `secret` (owner only) and `reviewNote` (owner and Admin) are protected: some role that
    reads Memo (the API key, IAM, Admin, editors, the Lambda authorizer) may not read them. As the
    auth transformer's field response template does with subscriptions on ("Per-Field with
    Subscriptions"), a mutation returns them as null to every caller, even the owner, and with
    `Unauthorized` to a caller their rules refuse; each subscription event, which carries the
    mutation's response, has them null with no error, for the owner and for Admin alike. Queries
    still read them under their rules, and `title` (unprotected) is returned everywhere."""
    import base64

    from websockets.sync.client import connect

    with SecuredAuthServer() as (secured, user):
        ann, ada = user({"cognito:username": "ann"}), user({"cognito:username": "ada", "cognito:groups": ["Admin"]})
        host = f"127.0.0.1:{secured.port}"
        selection = "{ id title secret reviewNote }"
        sockets = []
        try:
            for headers in (ann, ada):
                auth = {"host": host, **headers}
                header = base64.b64encode(json.dumps(auth).encode()).decode()
                ws = connect(f"ws://{host}/graphql/realtime?header={header}&payload=e30=", subprotocols=["graphql-ws"],
                             open_timeout=10)
                sockets.append(ws)
                ws.send(json.dumps({"type": "connection_init"}))
                assert _received(ws)["type"] == "connection_ack"
                for field in ("onCreateMemo", "onUpdateMemo"):
                    start = {"query": f"subscription {{ {field} {selection} }}", "variables": {}}
                    ws.send(json.dumps({"type": "start", "id": field,
                                        "payload": {"data": json.dumps(start), "extensions": {"authorization": auth}}}))
                    assert _received(ws) == {"type": "start_ack", "id": field}
            create = f"mutation C($input: CreateMemoInput!) {{ createMemo(input: $input) {selection} }}"
            update = f"mutation U($input: UpdateMemoInput!) {{ updateMemo(input: $input) {selection} }}"
            created = _call(secured, create, {"input": {"id": "m1", "title": "T", "secret": "s"}}, ann)
            assert created == {"data": {"createMemo": {"id": "m1", "title": "T", "secret": None, "reviewNote": None}}}, created
            assert _stored(secured, "Memo", "m1")["secret"] == "s"
            # Admin may write and read `reviewNote`, not read `secret`: both null, `secret` refused.
            updated = _call(secured, update, {"input": {"id": "m1", "title": "T2", "reviewNote": "r"}}, ada)
            assert updated["data"] == {"updateMemo": {"id": "m1", "title": "T2", "secret": None, "reviewNote": None}}, updated
            assert [(e["errorType"], e["path"]) for e in updated["errors"]] == [("Unauthorized", ["updateMemo", "secret"])], updated
            stored = _stored(secured, "Memo", "m1")
            assert (stored["secret"], stored["reviewNote"]) == ("s", "r"), stored
            for ws in sockets:
                events = {}
                while len(events) < 2:
                    message = _received(ws)
                    assert message["type"] == "data", message
                    events[message["id"]] = message["payload"]
                assert events == {
                    "onCreateMemo": {"data": {"onCreateMemo": {"id": "m1", "title": "T", "secret": None, "reviewNote": None}}},
                    "onUpdateMemo": {"data": {"onUpdateMemo": {"id": "m1", "title": "T2", "secret": None, "reviewNote": None}}},
                }, events
        finally:
            for ws in sockets:
                ws.close()
        get = f"query G($id: ID!) {{ getMemo(id: $id) {selection} }}"
        assert _call(secured, get, {"id": "m1"}, ann) == {
            "data": {"getMemo": {"id": "m1", "title": "T2", "secret": "s", "reviewNote": "r"}}}
        read = _call(secured, get, {"id": "m1"}, ada)
        assert read["data"] == {"getMemo": {"id": "m1", "title": "T2", "secret": None, "reviewNote": "r"}}, read
        assert [e["path"] for e in read["errors"]] == [["getMemo", "secret"]], read


def _received(ws: object) -> dict:
    """The next real-time message that is not a keep-alive."""
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] != "ka":
            return message


@check(schema="auth-rules")
def implicit_id_is_outside_the_matrix(server: Server) -> None:
    """Memento has Dossier's rules but no declared `id`. The transformer's access-control matrix holds the
    fields as written, so the manifest's `authFields` leave the inserted `id` out, and no role's
    create fields hold it: ann's create without `id` succeeds (the server picks one, ann is the
    owner), a create naming `id` is refused "Unauthorized on [id]" (AppSync's behaviour). An update
    may always name the primary key."""
    manifest = json.loads(schema_path("auth-rules").with_name("schema.local.json").read_text(encoding="utf-8"))
    assert manifest["models"]["Memento"]["authFields"] == ["title", "hidden"], manifest["models"]["Memento"]
    assert manifest["models"]["Dossier"]["authFields"] == ["id", "title", "hidden"], manifest["models"]["Dossier"]
    with SecuredAuthServer() as (secured, user):
        ann = user({"cognito:username": "ann"})
        create = "mutation C($input: CreateMementoInput!) { createMemento(input: $input) { id owner hidden } }"
        created = _call(secured, create, {"input": {"title": "A", "hidden": "h"}}, ann)
        jot = created["data"]["createMemento"]
        # `hidden` is protected (the private rule may not read it): null in every mutation response.
        assert (jot["owner"], jot["hidden"], bool(jot["id"])) == ("ann", None, True), created
        assert "errors" not in created and _stored(secured, "Memento", jot["id"])["hidden"] == "h", created
        _refused(_call(secured, create, {"input": {"id": "j1", "title": "B"}}, ann), "createMemento", "Unauthorized on [id]")
        _refused(_call(secured, create, {"input": {"id": "j1", "title": "B", "hidden": "h"}}, ann), "createMemento",
                 "Unauthorized on [id]")
        update = "mutation U($input: UpdateMementoInput!) { updateMemento(input: $input) { id title } }"
        assert _call(secured, update, {"input": {"id": jot["id"], "title": "A2"}}, ann) == {
            "data": {"updateMemento": {"id": jot["id"], "title": "A2"}}}


@check(schema="auth-rules")
def fine_grained_read_operations(server: Server) -> None:
    """Rules may grant the read operations one by one (transformer v2): each root field admits the
    roles of its own operation (get: `protectGetResolver`, list: `protectListResolver`), so
    Bulletin's API key gets but does not list, and its owner (create, update, delete only) writes
    but neither gets nor lists; the refusal is AppSync's Unauthorized at the root field."""
    with SecuredAuthServer() as (secured, user):
        ann, key = user({"cognito:username": "ann"}), {"x-api-key": "da2-good"}
        create = "mutation C($input: CreateBulletinInput!) { createBulletin(input: $input) { id text } }"
        get = "query G($id: ID!) { getBulletin(id: $id) { id text } }"
        listing = "query L { listBulletins { items { id } } }"
        created = _call(secured, create, {"input": {"id": "b1", "text": "posted"}}, ann)
        assert created == {"data": {"createBulletin": {"id": "b1", "text": "posted"}}}, created
        _refused(_call(secured, create, {"input": {"id": "b2", "text": "keyed"}}, key), "createBulletin",
                 "Not Authorized to access createBulletin on type Mutation")
        assert _call(secured, get, {"id": "b1"}, key) == {"data": {"getBulletin": {"id": "b1", "text": "posted"}}}
        _refused(_call(secured, get, {"id": "b1"}, ann), "getBulletin", "Not Authorized to access getBulletin on type Query")
        for caller in (key, ann):
            _refused(_call(secured, listing, {}, caller), "listBulletins",
                     "Not Authorized to access listBulletins on type Query")
        assert [r["id"] for r in hook(secured, "/test/records/Bulletin")] == ["b1"]


@check(schema="auth-rules")
def recordless_writes_are_decided_by_the_stored_owner(server: Server) -> None:
    """An update or delete by a caller that no static role (public, private, custom, a static group
    it holds) lets write is decided by the stored record's owner field, as the transformer's update
    and delete auth resolvers read it (`$ctx.result.<ownerField>` of the record the mutation loads
    first), never by the input: bob is refused ann's notice, whatever owner his input names, and
    the record stays as it was; a key with no stored record is refused too (no record, no owner to
    match: `$util.unauthorized()`, not a conditional failure). The owner updates and deletes; the
    API key, whose only rule reads, is refused at the model level."""
    with SecuredAuthServer() as (secured, user):
        ann, bob = user({"cognito:username": "ann"}), user({"cognito:username": "bob"})
        key = {"x-api-key": "da2-good"}
        create = "mutation C($input: CreateNoticeInput!) { createNotice(input: $input) { id text owner } }"
        update = "mutation U($input: UpdateNoticeInput!) { updateNotice(input: $input) { id text owner } }"
        delete = "mutation D($input: DeleteNoticeInput!) { deleteNotice(input: $input) { id } }"
        created = _call(secured, create, {"input": {"id": "n1", "text": "ann's"}}, ann)
        assert created == {"data": {"createNotice": {"id": "n1", "text": "ann's", "owner": "ann"}}}, created
        before = _stored(secured, "Notice", "n1")
        assert before["owner"] == "sub-ann::ann", before
        refusal = "Not Authorized to access updateNotice on type Mutation"
        for input_ in ({"id": "n1", "text": "bob's"}, {"id": "n1", "text": "bob's", "owner": "bob"},
                       {"id": "n1", "text": "bob's", "owner": "sub-ann::ann"}, {"id": "n1", "owner": "sub-bob::bob"}):
            _refused(_call(secured, update, {"input": input_}, bob), "updateNotice", refusal)
        _refused(_call(secured, delete, {"input": {"id": "n1"}}, bob), "deleteNotice",
                 "Not Authorized to access deleteNotice on type Mutation")
        _refused(_call(secured, update, {"input": {"id": "n1", "text": "keyed"}}, key), "updateNotice", refusal)
        assert _stored(secured, "Notice", "n1") == before
        # No stored record: no owner to match, so an owner-only caller is refused (not a
        # conditional failure that would tell a record apart from none).
        _refused(_call(secured, update, {"input": {"id": "none", "text": "x"}}, bob), "updateNotice", refusal)
        _refused(_call(secured, delete, {"input": {"id": "none"}}, bob), "deleteNotice",
                 "Not Authorized to access deleteNotice on type Mutation")
        assert [r["id"] for r in hook(secured, "/test/records/Notice")] == ["n1"]
        # The owner updates and deletes.
        updated = _call(secured, update, {"input": {"id": "n1", "text": "edited"}}, ann)
        assert updated == {"data": {"updateNotice": {"id": "n1", "text": "edited", "owner": "ann"}}}, updated
        assert _call(secured, delete, {"input": {"id": "n1"}}, ann) == {"data": {"deleteNotice": {"id": "n1"}}}
        assert hook(secured, "/test/records/Notice") == []


@check(schema="auth-rules")
def authorization_check_and_write_are_atomic(server: Server) -> None:
    """An update's authorization check and its write are one critical section: bob's update of his
    notice pauses 600 ms after its check (`x-test-pause-after-check-ms`) while a second update of
    his hands the notice to ann with her text. The second update waits for the first, so bob's
    text lands while he owns the notice and ann's text is the last: no write lands on a record
    whose owner changed after its check (before, the reassignment ran in the pause and bob's
    stale check then overwrote ann's notice)."""
    import threading

    with SecuredAuthServer() as (secured, user):
        bob = user({"cognito:username": "bob"})
        create = "mutation C($input: CreateNoticeInput!) { createNotice(input: $input) { id } }"
        update = "mutation U($input: UpdateNoticeInput!) { updateNotice(input: $input) { id text owner } }"
        assert _call(secured, create, {"input": {"id": "n1", "text": "t0"}}, bob) == {"data": {"createNotice": {"id": "n1"}}}
        answers: dict[str, dict] = {}
        finished: list[str] = []

        def send(name: str, input_: dict, headers: dict) -> None:
            answers[name] = _call(secured, update, {"input": input_}, headers)
            finished.append(name)

        slow = threading.Thread(target=send, args=("slow", {"id": "n1", "text": "bob's"},
                                                   {**bob, "x-test-pause-after-check-ms": "1500"}))
        slow.start()
        time.sleep(0.5)  # the slow update is checked and paused by now (on a loaded machine, maybe not)
        handover = threading.Thread(target=send, args=("handover", {"id": "n1", "text": "ann's", "owner": "sub-ann::ann"}, bob))
        handover.start()
        slow.join(timeout=60)
        handover.join(timeout=60)
        assert sorted(finished) == ["handover", "slow"], (finished, answers)
        assert answers["handover"] == {"data": {"updateNotice": {"id": "n1", "text": "ann's", "owner": "ann"}}}, answers
        # Either order is a serial one: the slow update wrote while bob owned the notice (its
        # answer names him), or it was checked after the handover and refused. Never its write on
        # ann's notice (the old answer: text "bob's", owner "ann", and bob's text stored last).
        assert answers["slow"] in ({"data": {"updateNotice": {"id": "n1", "text": "bob's", "owner": "bob"}}},
                                   {"data": {"updateNotice": None}, "errors": answers["slow"].get("errors")}), answers
        if answers["slow"]["data"]["updateNotice"] is None:
            _refused(answers["slow"], "updateNotice", "Not Authorized to access updateNotice on type Mutation")
        stored = _stored(secured, "Notice", "n1")
        assert (stored["text"], stored["owner"]) == ("ann's", "sub-ann::ann"), stored


@check(schema="auth-rules")
def invalid_auth_rules_are_refused_at_start(server: Server) -> None:
    """`--auth-config` rules (and the manifest's) the auth transformer would reject stop the server
    before it listens, every problem on its own `error:` line naming the rule's place and the fix:
    a provider the strategy does not support (owner/groups need userPools or oidc, public apiKey or
    iam, private userPools, oidc or iam), an unknown strategy or operation, an empty operations
    list, a groups rule without groups, a granular read operation in a field rule. No key or
    secret of the config is printed."""
    directory = Path(tempfile.mkdtemp(prefix="selftest-auth-rules-"))
    config = {"apiKey": "da2-secret-never-printed", "modelRules": {
        "Notice": [{"allow": "owner", "provider": "apiKey"}, {"allow": "public", "provider": "userPools"},
                   {"allow": "private", "provider": "function"}, {"allow": "everyone"}],
        "Memo": [{"allow": "groups", "provider": "iam", "groups": ["Admin"]}, {"allow": "groups"},
                 {"allow": "public", "operations": ["lisst"]}, {"allow": "owner", "operations": []}],
        "Bulletin": [{"allow": "public", "operations": ["get"]}]},
        "fieldRules": {"Memo": {"secret": [{"allow": "owner", "operations": ["get", "read"]}]}}}
    (directory / "auth.json").write_text(json.dumps(config))
    result = subprocess.run([sys.executable, str(HERE / "server.py"), "--schema", str(schema_path("auth-rules")),
                             "--port", "0", "--db", str(directory / "db.sqlite"), "--auth-config",
                             str(directory / "auth.json")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "LISTENING" not in result.stdout, (result.returncode, result.stdout)
    source = f"{directory / 'auth.json'}"
    expected = [
        f'error: {source} modelRules: Memo rule 1: provider "iam" is not valid for allow: groups; use one of userPools, oidc',
        f"error: {source} modelRules: Memo rule 2: allow: groups needs a non-empty 'groups' list or a 'groupsField'",
        f'error: {source} modelRules: Memo rule 3: unknown operation "lisst"; use one of create, update, delete, '
        "read, get, list, sync, listen, search",
        f"error: {source} modelRules: Memo rule 4: operations must be a non-empty list (it would grant nothing)",
        f'error: {source} modelRules: Notice rule 1: provider "apiKey" is not valid for allow: owner; use one of '
        "userPools, oidc",
        f'error: {source} modelRules: Notice rule 2: provider "userPools" is not valid for allow: public; use one of '
        "apiKey, iam, identityPool",
        f'error: {source} modelRules: Notice rule 3: provider "function" is not valid for allow: private; use one of '
        "userPools, oidc, iam, identityPool",
        f'error: {source} modelRules: Notice rule 4: unknown strategy allow: "everyone"; use one of public, private, '
        "owner, groups, custom",
        f"error: {source} fieldRules: Memo.secret rule 1: 'get' operation is not allowed at the field level; use 'read'",
    ]
    assert result.stderr.splitlines() == expected, result.stderr
    assert "da2-secret-never-printed" not in result.stderr + result.stdout


def _rule(allow: str, *operations: str, **options: object) -> dict:
    return {"allow": allow, **({"operations": list(operations)} if operations else {}), **options}


@check(schema="auth-rules")
def field_rule_kinds_on_every_operation(server: Server) -> None:
    """Dossier's `hidden` under each kind of field rule (static group, private, public) beside the
    model's private and public rules, each operation both ways, as the transformer's create and
    update resolvers (allowedFields / nullAllowedFields per role, union over the roles the caller
    meets) and field resolvers decide them. The owner kind is `owner_filled_by_a_field_rule_alone`."""
    model = {"Dossier": [_rule("private"), _rule("public")]}

    def server_with(*hidden_rules: dict) -> SecuredAuthServer:
        return SecuredAuthServer(modelRules=model, fieldRules={"Dossier": {"hidden": list(hidden_rules)}})

    key = {"x-api-key": "da2-good"}
    # A static group may create, update and read `hidden`, not delete (null) it.
    with server_with(_rule("groups", "create", "update", "read", groups=["Admin"])) as (secured, user):
        ann, admin = user({"cognito:username": "ann"}), user({"cognito:username": "ada", "cognito:groups": ["Admin"]})
        _refused(_call(secured, CREATE_DOSSIER, {"input": {"id": "n1", "title": "A", "hidden": "h"}}, ann), "createDossier",
                 "Unauthorized on [hidden]")
        assert _call(secured, CREATE_DOSSIER, {"input": {"id": "n1", "title": "A"}}, ann) == {
            "data": {"createDossier": {"id": "n1", "owner": None}}}
        assert _call(secured, CREATE_DOSSIER, {"input": {"id": "n2", "title": "B", "hidden": "h"}}, admin)["data"] == {
            "createDossier": {"id": "n2", "owner": None}}
        assert _call(secured, UPDATE_DOSSIER, {"input": {"id": "n2", "hidden": "h2"}}, admin) == {"data": {"updateDossier": {"id": "n2"}}}
        _refused(_call(secured, UPDATE_DOSSIER, {"input": {"id": "n2", "hidden": None}}, admin), "updateDossier",
                 "Unauthorized on [hidden]")
        _refused(_call(secured, UPDATE_DOSSIER, {"input": {"id": "n2", "hidden": "mine"}}, ann), "updateDossier",
                 "Unauthorized on [hidden]")
        assert _hidden(_call(secured, GET_DOSSIER, {"id": "n2"}, admin)) == ("h2", [])
        for caller in (ann, key):
            assert _hidden(_call(secured, GET_DOSSIER, {"id": "n2"}, caller)) == (None, [["getDossier", "hidden"]])
        assert _stored(secured, "Dossier", "n2")["hidden"] == "h2"
    # Private read only: every user reads `hidden`, no one writes it; the API key does not read it.
    with server_with(_rule("private", "read")) as (secured, user):
        ann = user({"cognito:username": "ann"})
        _refused(_call(secured, CREATE_DOSSIER, {"input": {"id": "n1", "title": "A", "hidden": "h"}}, ann), "createDossier",
                 "Unauthorized on [hidden]")
        assert _call(secured, CREATE_DOSSIER, {"input": {"id": "n1", "title": "A"}}, key)["data"] == {
            "createDossier": {"id": "n1", "owner": None}}
        _refused(_call(secured, UPDATE_DOSSIER, {"input": {"id": "n1", "hidden": "h"}}, ann), "updateDossier",
                 "Unauthorized on [hidden]")
        assert _hidden(_call(secured, GET_DOSSIER, {"id": "n1"}, ann)) == (None, [])
        assert _hidden(_call(secured, GET_DOSSIER, {"id": "n1"}, key)) == (None, [["getDossier", "hidden"]])
    # Public create and read: the API key writes `hidden` on create only and reads it; users do not.
    with server_with(_rule("public", "create", "read")) as (secured, user):
        ann = user({"cognito:username": "ann"})
        assert _call(secured, CREATE_DOSSIER, {"input": {"id": "n1", "title": "A", "hidden": "k"}}, key)["data"] == {
            "createDossier": {"id": "n1", "owner": None}}
        _refused(_call(secured, CREATE_DOSSIER, {"input": {"id": "n2", "title": "B", "hidden": "u"}}, ann), "createDossier",
                 "Unauthorized on [hidden]")
        _refused(_call(secured, UPDATE_DOSSIER, {"input": {"id": "n1", "hidden": "k2"}}, key), "updateDossier",
                 "Unauthorized on [hidden]")
        assert _hidden(_call(secured, GET_DOSSIER, {"id": "n1"}, key)) == ("k", [])
        assert _hidden(_call(secured, GET_DOSSIER, {"id": "n1"}, ann)) == (None, [["getDossier", "hidden"]])
    # Private with every operation: users create, update and null `hidden`; the API key none of it.
    with server_with(_rule("private")) as (secured, user):
        ann = user({"cognito:username": "ann"})
        assert _call(secured, CREATE_DOSSIER, {"input": {"id": "n1", "title": "A", "hidden": "h"}}, ann)["data"] == {
            "createDossier": {"id": "n1", "owner": None}}
        assert _call(secured, UPDATE_DOSSIER, {"input": {"id": "n1", "hidden": None}}, ann) == {"data": {"updateDossier": {"id": "n1"}}}
        _refused(_call(secured, CREATE_DOSSIER, {"input": {"id": "k1", "title": "K", "hidden": "k"}}, key), "createDossier",
                 "Unauthorized on [hidden]")
        assert _call(secured, UPDATE_DOSSIER, {"input": {"id": "n1", "title": "by key"}}, key) == {"data": {"updateDossier": {"id": "n1"}}}
        _refused(_call(secured, UPDATE_DOSSIER, {"input": {"id": "n1", "hidden": "k"}}, key), "updateDossier",
                 "Unauthorized on [hidden]")
        stored = _stored(secured, "Dossier", "n1")
        assert (stored["title"], stored.get("hidden")) == ("by key", None), stored


@check(schema="auth-rules")
def group_claim_shapes(server: Server) -> None:
    """A groups claim is read as the transformer's dynamic group resolvers read it: a list, a string
    (one group) or a string holding a JSON list; absent is no groups. Any other shape (`0`, `false`,
    `""`, an object, a list holding "") is a malformed token, HTTP 401, never "no groups"."""
    with SecuredAuthServer() as (secured, user):
        _call(secured, CREATE_MEMO, {"input": {"id": "m1", "title": "A"}}, user({"cognito:username": "ann"}))
        for shape in (["Admin"], "Admin", '["Editors", "Admin"]', ["x", "Admin"]):
            admin = user({"cognito:username": "ada", "cognito:groups": shape})
            got = _call(secured, GET_MEMO, {"id": "m1"}, admin)
            assert got["data"] == {"getMemo": {"id": "m1", "title": "A"}}, (shape, got)
        for shape in (None, [], "Editors", '["Editors"]', '"Admin"'):
            outsider = user({"cognito:username": "otto", **({} if shape is None else {"cognito:groups": shape})})
            _refused(_call(secured, GET_MEMO, {"id": "m1"}, outsider), "getMemo",
                     "Not Authorized to access getMemo on type Query")
        for shape in (0, False, "", {"Admin": True}, [""], ["Admin", 1], 1.5, True):
            status, answer = secured.post(GET_MEMO, {"id": "m1"},
                                          headers=user({"cognito:username": "ada", "cognito:groups": shape}),
                                          api_key=None)
            assert status == 401, (shape, status, answer)
            assert answer["errors"][0]["message"] == "Valid authorization header not provided.", (shape, answer)


def _raw_jwt(head: bytes, payload: bytes, secret: str) -> str:
    """A JWT of any header and payload bytes, correctly signed (HS256), to reach the claim checks."""
    import base64
    import hashlib
    import hmac

    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    signing_input = f"{part(head)}.{part(payload)}"
    signature = hmac.new(secret.encode(), signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{part(signature)}"


JWT_HEAD = json.dumps({"alg": "HS256", "typ": "JWT"}).encode()


def _claims(expires: int, **extra: object) -> bytes:
    return json.dumps({"iss": POOL, "aud": "client-1", "exp": expires, "cognito:username": "ann", "sub": "sub-ann",
                       **extra}).encode()


def _refused_tokens(secured: Server, tokens: dict[str, str], messages: dict[str, str]) -> None:
    """Each token is HTTP 401 UnauthorizedException with its message (default: a bad header), and
    a start carrying it over the real-time endpoint is that start's error (the connection lives on)."""
    import base64

    from websockets.sync.client import connect

    for name, token in tokens.items():
        status, answer = secured.post(GET_MEMO, {"id": "m1"}, headers={"authorization": token}, api_key=None)
        assert status == 401, (name, status, answer)
        error = answer["errors"][0]
        assert error["errorType"] == "UnauthorizedException", (name, answer)
        assert error["message"] == messages.get(name, "Valid authorization header not provided."), (name, answer)
    host = f"127.0.0.1:{secured.port}"
    header = base64.b64encode(json.dumps({"host": host, "x-api-key": "da2-good"}).encode()).decode()
    with connect(f"ws://{host}/graphql/realtime?header={header}&payload=e30=", subprotocols=["graphql-ws"],
                 open_timeout=10) as ws:
        def receive() -> dict:
            while True:
                message = json.loads(ws.recv(timeout=10))
                if message["type"] != "ka":
                    return message

        ws.send(json.dumps({"type": "connection_init"}))
        assert receive()["type"] == "connection_ack"
        data = json.dumps({"query": "subscription { onCreateMemo { id } }", "variables": {}})
        for number, (name, token) in enumerate(tokens.items()):
            ws.send(json.dumps({"type": "start", "id": f"bad{number}", "payload": {
                "data": data, "extensions": {"authorization": {"host": host, "Authorization": token}}}}))
            answer = receive()
            assert answer["type"] == "error" and answer["id"] == f"bad{number}", (name, answer)
            assert answer["payload"]["errors"][0]["errorType"] == "UnauthorizedException", (name, answer)
        ws.send(json.dumps({"type": "start", "id": "good", "payload": {
            "data": data, "extensions": {"authorization": {"host": host, "x-api-key": "da2-good"}}}}))
        assert receive() == {"type": "start_ack", "id": "good"}


@check(schema="auth-rules")
def malformed_tokens_are_refused_never_dropped(server: Server) -> None:
    """Fuzzed JWT shapes, each correctly signed so that every parsing step is reached (a header or
    claims that are not objects, groups and usernames of the wrong type, nesting past the JSON
    parser's depth, bytes that are not UTF-8 or base64): HTTP 401, never a dropped connection; over
    the real-time endpoint an `error` for that start, a malformed start message an `error` too, and
    a handshake with such a token a `connection_error`."""
    import base64
    import random

    from websockets.sync.client import connect

    with SecuredAuthServer() as (secured, user):
        _call(secured, CREATE_MEMO, {"input": {"id": "m1", "title": "A"}}, user({"cognito:username": "ann"}))
        exp = int(time.time()) + 600
        shapes = {
            "header is a list": (b'["HS256"]', _claims(exp)),
            "header is a string": (b'"HS256"', _claims(exp)),
            "header is null": (b"null", _claims(exp)),
            "header is not JSON": (b"{alg", _claims(exp)),
            "groups is an int": (JWT_HEAD, _claims(exp, **{"cognito:groups": 7})),
            "groups holds ints": (JWT_HEAD, _claims(exp, **{"cognito:groups": [1, 2]})),
            "groups is an object": (JWT_HEAD, _claims(exp, **{"cognito:groups": {"Admin": True}})),
            "groups is false": (JWT_HEAD, _claims(exp, **{"cognito:groups": False})),
            "groups is 0": (JWT_HEAD, _claims(exp, **{"cognito:groups": 0})),
            "groups is empty text": (JWT_HEAD, _claims(exp, **{"cognito:groups": ""})),
            "claims nest deeply": (JWT_HEAD, b'{"iss": "' + POOL.encode() + b'", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}"),
            "claims are not UTF-8": (JWT_HEAD, b'{"iss": "' + POOL.encode() + b'", "x": "\xff"}'),
        }
        tokens = {name: _raw_jwt(head, body, "pool-secret") for name, (head, body) in shapes.items()}
        tokens["claims are a list"] = _raw_jwt(JWT_HEAD, b'[{"iss": "' + POOL.encode() + b'"}]', "pool-secret")
        tokens["not base64"] = "e30.!!!.e30"
        # Seeded random bytes in each part (printed on failure by the assertion's name).
        generator = random.Random(15)
        for number in range(20):
            head = bytes(generator.randrange(256) for _ in range(generator.randrange(1, 40)))
            body = _claims(exp)[: generator.randrange(60)] + bytes(generator.randrange(256) for _ in range(8))
            tokens[f"random {number} (seed 15)"] = _raw_jwt(head, body, "pool-secret")
        messages = {"claims are a list": "You are not authorized to make this call."}  # no issuer: the Lambda path
        # Random tokens may fall to the Lambda path (no issuer read): either 401 message is right.
        randoms = {n: t for n, t in tokens.items() if n.startswith("random")}
        fixed = {n: t for n, t in tokens.items() if not n.startswith("random")}
        _refused_tokens(secured, fixed, messages)
        for name, token in randoms.items():
            status, answer = secured.post(GET_MEMO, {"id": "m1"}, headers={"authorization": token}, api_key=None)
            assert status == 401 and answer["errors"][0]["errorType"] == "UnauthorizedException", (name, status, answer)

        host = f"127.0.0.1:{secured.port}"
        header = base64.b64encode(json.dumps({"host": host, "x-api-key": "da2-good"}).encode()).decode()
        with connect(f"ws://{host}/graphql/realtime?header={header}&payload=e30=", subprotocols=["graphql-ws"],
                     open_timeout=10) as ws:
            def receive() -> dict:
                while True:
                    message = json.loads(ws.recv(timeout=10))
                    if message["type"] != "ka":
                        return message

            ws.send(json.dumps({"type": "connection_init"}))
            assert receive()["type"] == "connection_ack"
            for number, payload in enumerate([[1], "text", {"extensions": [1]}, {"extensions": {"authorization": [1]}}]):
                ws.send(json.dumps({"type": "start", "id": f"shape{number}", "payload": payload}))
                answer = receive()
                assert answer["type"] == "error" and answer["id"] == f"shape{number}", (payload, answer)
            ws.send(json.dumps({"type": "start", "id": ["not", "a", "string"]}))
            assert receive()["type"] == "error"
            ws.send(json.dumps({"type": "stop", "id": {"x": 1}}))
            assert receive()["type"] in ("error", "complete")  # an answer; the connection lives on
            data = json.dumps({"query": "subscription { onCreateMemo { id } }", "variables": {}})
            ws.send(json.dumps({"type": "start", "id": "good", "payload": {
                "data": data, "extensions": {"authorization": {"host": host, "x-api-key": "da2-good"}}}}))
            assert receive() == {"type": "start_ack", "id": "good"}
        for name in ("header is a list", "groups is an int"):
            bad = base64.b64encode(json.dumps({"host": host, "Authorization": tokens[name]}).encode()).decode()
            with connect(f"ws://{host}/graphql/realtime?header={bad}&payload=e30=", subprotocols=["graphql-ws"],
                         open_timeout=10) as ws:
                ws.send(json.dumps({"type": "connection_init"}))
                answer = json.loads(ws.recv(timeout=10))
                assert answer["type"] == "connection_error", (name, answer)
                assert answer["payload"]["errors"][0]["message"] == "Valid authorization header not provided.", answer


@check(schema="auth-rules")
def jwt_times_and_audience(server: Server) -> None:
    """RFC 7519's NumericDates and audience: `exp` must be a finite number (not Infinity, NaN, a
    string or a boolean) in the future, `nbf` not in the future, `iat` not in the future (60 s of
    leeway); `aud` one string or an array of strings holding ours. Refused over HTTP and in a start."""
    with SecuredAuthServer() as (secured, user):
        _call(secured, CREATE_MEMO, {"input": {"id": "m1", "title": "A"}}, user({"cognito:username": "ann"}))
        exp = int(time.time()) + 600
        cases = {
            "exp is Infinity": _claims(exp).replace(str(exp).encode(), b"Infinity"),
            "exp is -Infinity": _claims(exp).replace(str(exp).encode(), b"-Infinity"),
            "exp is NaN": _claims(exp).replace(str(exp).encode(), b"NaN"),
            "exp is 1e999": _claims(exp).replace(str(exp).encode(), b"1e999"),
            "exp is a string": _claims(exp, exp=str(exp)),
            "exp is true": _claims(exp, exp=True),
            "exp is missing": json.dumps({"iss": POOL, "aud": "client-1", "cognito:username": "ann"}).encode(),
            "exp has passed": _claims(exp - 1200),
            "nbf is in the future": _claims(exp, nbf=exp),
            "nbf is a string": _claims(exp, nbf="now"),
            "iat is far in the future": _claims(exp, iat=exp + 3600),
            "iat is Infinity": _claims(exp, iat=0).replace(b'"iat": 0', b'"iat": Infinity'),
            "aud is a list without ours": _claims(exp, aud=["client-2", "client-3"]),
            "aud holds a number": _claims(exp, aud=["client-1", 1]),
            "aud is a number": _claims(exp, aud=1),
            "aud is another client": _claims(exp, aud="client-2"),
        }
        tokens = {name: _raw_jwt(JWT_HEAD, body, "pool-secret") for name, body in cases.items()}
        _refused_tokens(secured, tokens, {"exp has passed": "Token has expired.",
                                          "nbf is in the future": "Token is not yet valid.",
                                          "iat is far in the future": "Token was issued in the future."})
        # Valid: an `aud` array holding our audience (RFC 7519 §4.1.3), past nbf and iat, a
        # fractional exp, an iat within the leeway.
        for extra in ({"aud": ["client-2", "client-1"]}, {"nbf": exp - 1200, "iat": exp - 1200}, {"exp": exp + 0.5},
                      {"iat": int(time.time()) + 30}):
            token = _raw_jwt(JWT_HEAD, _claims(exp, **extra), "pool-secret")
            status, answer = secured.post(GET_MEMO, {"id": "m1"}, headers={"authorization": token}, api_key=None)
            assert status == 200 and answer == {"data": {"getMemo": {"id": "m1", "title": "A"}}}, (extra, status, answer)


@check(schema="auth-rules")
def owner_argument_required(server: Server) -> None:
    """--auth-config `requireOwnerArgument` (auth.py): an owner-only model's subscription (Ticket,
    user pools) is refused without the owner argument, started with the caller's own, and refused
    with another's; /test/realtime/subscriptions lists the started one's arguments."""
    import base64

    from websockets.sync.client import connect

    pool = "https://cognito-idp.local/pool"
    config = {"userPools": {"secret": "pool-secret", "issuer": pool, "audience": "client-1"}, "requireOwnerArgument": True}
    directory = Path(tempfile.mkdtemp(prefix="selftest-owner-"))
    (directory / "auth.json").write_text(json.dumps(config))
    secured = Server(schema_path("auth-rules"), directory / "auth.sqlite", api_key=None,
                     auth_config=directory / "auth.json")
    try:
        host = f"127.0.0.1:{secured.port}"
        token = _jwt({"iss": pool, "aud": "client-1", "cognito:username": "ann", "sub": "sub-ann",
                      "exp": int(time.time()) + 600}, "pool-secret")
        auth = {"host": host, "authorization": token}
        header = base64.b64encode(json.dumps(auth).encode()).decode()
        with connect(f"ws://{host}/graphql/realtime?header={header}&payload=e30=", subprotocols=["graphql-ws"],
                     open_timeout=10) as ws:
            def receive() -> dict:
                while True:
                    message = json.loads(ws.recv(timeout=10))
                    if message["type"] != "ka":
                        return message

            ws.send(json.dumps({"type": "connection_init"}))
            assert receive()["type"] == "connection_ack"
            query = ("subscription S($assignee: String) { onCreateTicket(assignee: $assignee) { id } }")
            for sub_id, variables, accepted in [("none", {}, False), ("ann", {"assignee": "ann"}, True),
                                                ("bob", {"assignee": "bob"}, False)]:
                start = {"query": query, "variables": variables}
                ws.send(json.dumps({"type": "start", "id": sub_id,
                                    "payload": {"data": json.dumps(start), "extensions": {"authorization": auth}}}))
                answer = receive()
                assert answer["type"] == ("start_ack" if accepted else "error") and answer["id"] == sub_id, answer
            active = json.loads(urllib.request.urlopen(f"http://{host}/test/realtime/subscriptions", timeout=10).read())
            assert [(a["field"], a["arguments"]) for a in active] == [("onCreateTicket", {"assignee": "ann"})], active
    finally:
        secured.stop()


@check(schema="sync/sync-owner")
def owner_rules_filter_sync_queries(server: Server) -> None:
    """auth.py over a versioned owner model (Note, `allow: owner`): a create fills the owner, and a
    user's `syncNotes` (a read operation, like list) returns only that user's records."""
    pool = "https://cognito-idp.local/pool"
    config = {"userPools": {"secret": "pool-secret", "issuer": pool, "audience": "client-1"}}
    directory = Path(tempfile.mkdtemp(prefix="selftest-owner-sync-"))
    (directory / "auth.json").write_text(json.dumps(config))
    secured = Server(schema_path("sync/sync-owner"), directory / "auth.sqlite", api_key=None,
                     auth_config=directory / "auth.json")
    try:
        def user(name: str) -> dict:
            return {"authorization": _jwt({"iss": pool, "aud": "client-1", "cognito:username": name,
                                           "sub": f"sub-{name}", "exp": int(time.time()) + 600}, "pool-secret")}

        create = "mutation C($i: CreateNoteInput!) { createNote(input: $i) { id owner _version } }"
        for name in ("ann", "bob"):
            status, body = secured.post(create, {"i": {"id": f"{name}-1", "content": name}}, headers=user(name), api_key=None)
            assert status == 200 and body["data"]["createNote"] == {"id": f"{name}-1", "owner": name, "_version": 1}, body
        status, body = secured.post("{ syncNotes { items { id owner } startedAt } }", headers=user("ann"), api_key=None)
        assert status == 200 and body["data"]["syncNotes"]["items"] == [{"id": "ann-1", "owner": "ann"}], body
        assert isinstance(body["data"]["syncNotes"]["startedAt"], int), body
    finally:
        secured.stop()


def manifest_faults() -> None:
    """A missing, stale, malformed or unreadable manifest is a one-line error (`--check`, rc 1)."""
    source = schema_path("seed-post-comment")
    good = json.loads(source.with_name("schema.local.json").read_text(encoding="utf-8"))

    def edited(change) -> dict:
        manifest = json.loads(json.dumps(good))
        change(manifest)
        return manifest

    def set_in(path: list, value) -> object:
        def change(manifest: dict) -> None:
            target = manifest
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        return change

    cases = [
        (None, "no model metadata: no manifest at"),
        (edited(set_in(["models", "Post4V2", "primaryKey"], ["nope"])), "manifest: models.Post4V2.primaryKey[0]: Post4V2 has no field 'nope'"),
        (edited(set_in(["models", "Post4V2", "primaryKey"], "id")), "manifest: models.Post4V2.primaryKey: expected a list"),
        (edited(set_in(["models", "Post4V2", "timestamps"], {"createdAt": "made"})), "manifest: models.Post4V2.timestamps.createdAt: Post4V2 has no field 'made'"),
        (edited(set_in(["models", "Post4V2"], None)), "manifest: models.Post4V2.primaryKey: expected a list"),
        (edited(set_in(["operations", "Query"], [])), "manifest: operations.Query: expected an object"),
        (edited(set_in(["operations", "Query", "getPost4V2", "kind"], "FROB")), "manifest: operations.Query.getPost4V2: unknown Query kind 'FROB'"),
        (edited(lambda m: m["operations"]["Query"]["getPost4V2"].pop("model")), "manifest: operations.Query.getPost4V2: the manifest has no model None"),
        (edited(lambda m: m["models"]["Comment4V2"]["indexes"].__setitem__("byPost", ["postID", "nope"])), "Comment4V2 has no field 'nope'"),
        (edited(set_in(["models", "Post4V2", "defaults"], {"nope": "x"})), "manifest: models.Post4V2.defaults: Post4V2 has no field 'nope'"),
        (edited(set_in(["version"], True)), "not a version 1 modelgen manifest"),
        (edited(set_in(["version"], 2)), "not a version 1 modelgen manifest"),
    ]
    with tempfile.TemporaryDirectory(prefix="graphql-selftest-manifest-") as directory:
        for number, (manifest, expected) in enumerate(cases):
            folder = Path(directory) / str(number)
            folder.mkdir()
            schema = folder / "schema.api.graphql"
            schema.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
            if manifest is not None:
                (folder / "schema.local.json").write_text(json.dumps(manifest), encoding="utf-8")
            result = subprocess.run([sys.executable, str(HERE / "server.py"), "--schema", str(schema), "--check"],
                                    capture_output=True, text=True, timeout=60)
            lines = result.stderr.strip().splitlines()
            assert result.returncode == 1 and len(lines) == 1 and expected in lines[0], (number, result.returncode, result.stderr)
        # A FIFO as the manifest does not hang the server.
        fifo = Path(directory) / "fifo.json"
        os.mkfifo(fifo)
        result = subprocess.run([sys.executable, str(HERE / "server.py"), "--schema", str(source), "--manifest", str(fifo),
                                 "--check"], capture_output=True, text=True, timeout=60)
        assert result.returncode == 1 and "not a regular file" in result.stderr, result.stderr


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--schema", type=Path, default=None, help="serve this file for the seed checks")
    parser.add_argument("--only", default=None, help="run only the checks whose name contains this text")
    args = parser.parse_args()
    passed = failed = 0

    def run(name: str, body) -> None:
        nonlocal passed, failed
        if args.only and args.only not in name:
            return
        try:
            body()
            passed += 1
            print(f"ok   {name}")
        except Exception:  # noqa: BLE001 (report every failing check)
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc(file=sys.stdout)

    with tempfile.TemporaryDirectory(prefix="graphql-selftest-") as directory:
        # Every golden and every checked-in emitted schema must load (graphql-core accepts it).
        schemas = sorted(FIXTURES.glob("*.api.graphql")) + sorted((REPO / "Generated").glob("**/schema.api.graphql"))
        for schema in schemas:
            def loads(schema: Path = schema) -> None:
                Server(schema, Path(directory) / f"load-{schema.parent.name}-{schema.name}.sqlite").stop()
            run(f"loads {os.path.relpath(schema, REPO)}", loads)
        run("manifest faults are one-line errors", manifest_faults)
        run("versioned_write_is_atomic", versioned_write_is_atomic)

        for number, (stem, function) in enumerate(CHECKS):
            schema = args.schema if (args.schema and stem == "seed-post-comment") else schema_path(stem)

            def body(function=function, schema=schema, number=number) -> None:
                server = Server(schema, Path(directory) / f"{number}.sqlite")
                try:
                    function(server)
                finally:
                    server.stop()

            run(f"{function.__name__} [{os.path.relpath(schema, REPO)}]", body)

        # The persistence check's data must survive a restart on the same file.
        persisted = next(n for n, (_, f) in enumerate(CHECKS) if f.__name__ == "data_persists_across_restart")

        def survives() -> None:
            restarted = Server(schema_path("seed-post-comment"), Path(directory) / f"{persisted}.sqlite")
            try:
                got = restarted.gql("{ getPost4V2(id: \"persist\") { title } }")
                assert got == {"data": {"getPost4V2": {"title": "kept"}}}, got
            finally:
                restarted.stop()

        run("data_survives_restart", survives)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
