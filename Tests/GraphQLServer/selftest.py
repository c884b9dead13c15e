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
DEFAULT_SCHEMA = REPO / "Generated" / "seed-post-comment" / "schema.api.graphql"
FALLBACK_SCHEMA = HERE / "fixtures" / "seed-post-comment.api.graphql"
API_KEY = "selftest-key"


class Server:
    def __init__(self, schema: Path, db: Path, api_key: str | None = API_KEY) -> None:
        command = [sys.executable, str(HERE / "server.py"), "--schema", str(schema), "--port", "0", "--db", str(db)]
        if api_key:
            command += ["--api-key", api_key]
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


CHECKS = []


def check(function):
    CHECKS.append(function)
    return function


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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--schema", type=Path, default=None)
    args = parser.parse_args()
    schema = args.schema or (DEFAULT_SCHEMA if DEFAULT_SCHEMA.exists() else FALLBACK_SCHEMA)
    print(f"schema: {os.path.relpath(schema, REPO)}")
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="graphql-selftest-") as directory:
        for number, function in enumerate(CHECKS):
            db = Path(directory) / f"{number}.sqlite"
            server = Server(schema, db)
            try:
                function(server)
                passed += 1
                print(f"ok   {function.__name__}")
            except Exception:  # noqa: BLE001 (report every failing check)
                failed += 1
                print(f"FAIL {function.__name__}")
                traceback.print_exc(file=sys.stdout)
            finally:
                server.stop()
        # The last check's data must survive a restart on the same file.
        restarted = Server(schema, Path(directory) / f"{len(CHECKS) - 1}.sqlite")
        try:
            got = restarted.gql("{ getPost4V2(id: \"persist\") { title } }")
            assert got == {"data": {"getPost4V2": {"title": "kept"}}}, got
            passed += 1
            print("ok   data_survives_restart")
        except Exception:  # noqa: BLE001
            failed += 1
            print("FAIL data_survives_restart")
            traceback.print_exc(file=sys.stdout)
        finally:
            restarted.stop()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
