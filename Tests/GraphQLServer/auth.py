"""AppSync authorization for the local GraphQL server (server.py --auth-config FILE), stdlib only.

What it enforces, locally and deterministically, with keys and credentials the tests make:

  API_KEY                    the `x-api-key` header equals `apiKey`
  AMAZON_COGNITO_USER_POOLS  `Authorization: <JWT>`, HS256 under `userPools.secret`, `iss` equal to
                             `userPools.issuer`, `aud` (a string, or an array holding it) or
                             `client_id` equal to `userPools.audience`, `exp`/`nbf`/`iat` finite
                             numbers (RFC 7519 NumericDates): not expired, not before `nbf`, not
                             issued in the future (`jwtLeewaySeconds`, default 60); groups from
                             `groupClaim` (default `cognito:groups`; see "groups claims" below);
                             an owner rule's identity from its `identityClaim`, default
                             `sub::username` (or the provider's `identityClaim` setting)
  OPENID_CONNECT             the same under `oidc.secret` / `oidc.issuer` / `oidc.audience`
  AWS_LAMBDA                 `Authorization: <token>` looked up in `lambda.tokens`, the test
                             authorizer: {"<token>": {"isAuthorized": bool, "deniedFields": [...]}}
  AWS_IAM                    `Authorization: AWS4-HMAC-SHA256 …` verified as Signature Version 4
                             (service `appsync`, `iam.region`) against `iam.credentials`
                             ([{"accessKeyId", "secretAccessKey", "sessionToken"?}]), `X-Amz-Date`
                             within `maxSkewSeconds` (default 300) of the server's clock

The mode of a request is read from its headers as AppSync does (`x-api-key`; an `Authorization`
starting `AWS4-HMAC-SHA256`; a JWT whose `iss` is the user pool's or the OIDC provider's; any other
token goes to the Lambda authorizer). A request that fails here gets HTTP 401 with
`UnauthorizedException`, whatever the shape of its credentials (a JWT header that is a list, a
groups claim that is a number: never a dropped connection). Then every field checks the schema's
`@aws_api_key` / `@aws_iam` /
`@aws_oidc` / `@aws_cognito_user_pools(cognito_groups:)` / `@aws_lambda` directives (its own, else its
type's; a root field with none allows `defaultMode` only): a field the mode may not reach resolves to
null with an `Unauthorized` error "Not Authorized to access <field> on type <Type>", AppSync's shape.

`clockOffsetSeconds` shifts the server's clock (to test expiry and clock-skew rejections).
`requireOwnerArgument: true` refuses a subscription `start` of a caller that only owner rules let
read the model when it passes no owner argument (as AppSync refuses it; default: delivered, filtered).

The emitted schema carries modes; the `@auth` rules themselves come from the manifest modelgen writes
beside it (`schema.local.json`: each model's `authRules` and `fieldAuthRules`, each rule as written —
`allow`, `provider`, `ownerField`, `identityClaim`, `groupClaim`, `groups`, `groupsField`,
`operations` — with the provider and owner field resolved). A config may replace them with its own
`modelRules: {"<Model>": [rule, ...]}` and `fieldRules: {"<Model>": {"<field>": [rule, ...]}}` (for a
schema without a manifest); otherwise the config holds only test things (keys, the JWT test keys, the
Lambda authorizer table, IAM test credentials). After the mode check, as the Amplify transformer's
resolvers do:
  public / private / custom / static groups of the request's mode allow the operation outright;
  owner rules compare the record's owner field (default `owner`; a string or a list) with the
  identity claim (default the username) and dynamic group rules the record's `groupsField` with the
  caller's groups: a create fills an absent owner field with the caller and refuses another owner,
  update and delete refuse another's record, and (with no static role) a key with no stored
  record, deciding by the stored owner field, never the input's; get refuses it, list and index
  queries leave it out;
  a rule's `operations` limit where it applies (`read` covers get and list);
  a field with field rules resolves to null with `Unauthorized` for a caller no rule of it allows;
  a protected field (one some reader of the model may not read) of a model whose subscriptions are
  on is null in every mutation response, for every caller, and so in every subscription event, with
  no error there (the transformer's field response template; Amplify's "Per-Field with
  Subscriptions": `redacted_fields`); the manifest's `subscriptionLevel` ("public" or "off") turns
  that off, as `@model(subscriptions: {level: public})` does; at level "public" the rules also
  refuse no subscription `start` and filter no event (the transformer protects subscriptions at
  level `on` only; the emitted subscription fields carry no `@aws_*`, so only `defaultMode` gets
  in), and an event holds each field of a model with field rules as the mutation's caller could
  read it (AppSync publishes the mutation's response): null, with no error, where that caller may
  not read it (`MUTATOR_KEY`);
  a relationship field reads the related model under that model's rules (the transformer's
  protectRelationalResolver): no read role of the caller's mode there is null with `Unauthorized`,
  a hasMany keeps the records the caller's owner/dynamic group roles match, a belongsTo/hasOne
  record they do not match is null with `Unauthorized`;
  a create or update input naming a field the caller may not write is refused ("Unauthorized on
  [field, ...]"): a field's own rules replace the model's for it, a create needs `create`, an update
  `update` and, to set the field to null, `delete` as well (the transformer's allowedFields /
  nullAllowedFields);
  a token without the identity claim has the owner value `___xamznone____`, which matches no record
  (not even one whose owner field is null);
  a get, list, index, sync or relationship read, or a subscription, of a caller that no static
  role lets in and whose owner/dynamic group rules make no filter (the token lacks the identity
  claim or names no group; a static group it lacks makes none) is refused with `Unauthorized`,
  as the transformer's `generateAuthFilter` leaves the filter null and its resolver calls
  `$util.unauthorized()` — never an empty list, a null or a silent subscription.

Roles of field rules only: a model's access-control matrix (`Access`, the transformer's
AccessControlMatrix) gives each role the operations its rules grant on each field (a field's own
rules, else the model's); the model-level check of an operation lets through every role that may
perform it on some field (on every field for a delete), so a role that only field rules name reads
and writes its fields, and each other field reads as null with Unauthorized and is refused in an
input. The matrix covers the fields as written (the manifest's `authFields`; the transformer's
`collectFieldNames` runs on the type before fields are added): the timestamps and an owner field
the schema does not declare have no field resolver, so every role that passes the model-level
check reads them; they are in no create/update input.

Identity (owner rules), as the transformer's resolvers compute it: the identity claim (default
`sub::username`) is split at `::`; `username` reads the token's `username`, else `cognito:username`;
the owner value joins the parts (`"<sub>::<username>"`), a create stores it, and the owner field
reads as its last part (the username); a stored owner equal to the whole value or to one part is
the caller's (also as a subscription's owner argument). A part that is missing or not a string
makes the token own nothing (never a fall back to `sub`). An empty part is kept, as the
transformer's `$util.defaultIfNull` keeps it (`username: ""` beside `cognito:username: "bob"` is
the owner `"<sub>::"`, not bob), but is never matched alone; a claim whose parts are all empty owns
nothing.

Groups claims, as the transformer's dynamic group resolvers read them: a list of strings, a string
(one group) or a string holding a JSON list; absent is no groups; any other shape (`0`, `false`,
`""`, an object, a list holding a non-string or "") is a malformed token (HTTP 401).
"""

from __future__ import annotations

import base64
import calendar
import hashlib
import hmac
import json
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import unquote

from graphql import GraphQLList, GraphQLNonNull, GraphQLObjectType, OperationType, default_field_resolver

MODE_DIRECTIVES = {
    "aws_api_key": "apiKey",
    "aws_iam": "iam",
    "aws_oidc": "oidc",
    "aws_cognito_user_pools": "userPools",
    "aws_lambda": "lambda",
}


@dataclass
class Identity:
    """Who a request authenticated as."""

    mode: str
    username: str | None = None
    groups: list[str] = field(default_factory=list)
    claims: dict[str, Any] = field(default_factory=dict)
    denied_fields: list[str] = field(default_factory=list)


class Rejection(Exception):
    """A request that does not authenticate: HTTP 401 with AppSync's UnauthorizedException."""

    def __init__(self, message: str, error_type: str = "UnauthorizedException") -> None:
        super().__init__(message)
        self.message = message
        self.error_type = error_type

    def payload(self) -> dict:
        return {"errors": [{"errorType": self.error_type, "message": self.message}]}


class FieldUnauthorized(Exception):
    """Raised by a field the identity's mode may not reach; server.py formats it as AppSync does."""

    error_type = "Unauthorized"


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _uri_encode(text: str) -> str:
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char.isascii() and (char.isalnum() or char in "-._~"):
            out.append(char)
        else:
            out.append("%%%02X" % byte)
    return "".join(out)


class Authorizer:
    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.offset = float(config.get("clockOffsetSeconds", 0))
        self.max_skew = float(config.get("maxSkewSeconds", 300))
        self.default_mode = config.get("defaultMode")
        # `requireOwnerArgument`: a caller whose only way to read a model is its owner rules must
        # pass an owner argument to subscribe (AppSync's "Subscription ... requires owner argument").
        self.require_owner_argument = bool(config.get("requireOwnerArgument", False))

    def now(self) -> float:
        return time.time() + self.offset

    # -- authentication

    def authenticate(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Identity:
        """The identity of a request (header names lowercased), or raises Rejection.

        Whatever the credentials hold (a JWT whose header is a list, a groups claim that is a
        number, nesting deep enough to overflow the parser), the answer is a Rejection: HTTP 401,
        or the real-time endpoint's error message, never a dropped connection."""
        try:
            return self._authenticate(method, path, headers, body)
        except Rejection:
            raise
        except Exception:  # noqa: BLE001 - any other shape of bad credentials is a bad header
            raise Rejection("Valid authorization header not provided.") from None

    def _authenticate(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Identity:
        api_key = headers.get("x-api-key")
        authorization = headers.get("authorization")
        if api_key is not None:
            if "apiKey" not in self.config or not hmac.compare_digest(api_key, self.config["apiKey"]):
                raise Rejection("You are not authorized to make this call.")
            return Identity("apiKey")
        if not authorization:
            raise Rejection("Valid authorization header not provided.")
        if authorization.startswith("AWS4-HMAC-SHA256 "):
            return self._iam(method, path, headers, body, authorization)
        if authorization.count(".") == 2:
            try:
                claims = _json(_b64url(authorization.split(".")[1]))
            except (ValueError, RecursionError):
                raise Rejection("Valid authorization header not provided.") from None
            for mode in ("userPools", "oidc"):
                settings = self.config.get(mode)
                if settings and isinstance(claims, dict) and claims.get("iss") == settings.get("issuer"):
                    return self._jwt(mode, settings, authorization)
        return self._lambda(authorization)

    def _jwt(self, mode: str, settings: dict[str, Any], token: str) -> Identity:
        bad = Rejection("Valid authorization header not provided.")
        head, payload, signature = token.split(".")
        try:
            header = _json(_b64url(head))
            claims = _json(_b64url(payload))
            given = _b64url(signature)
        except (ValueError, RecursionError):
            raise bad from None
        if not isinstance(header, dict) or not isinstance(claims, dict) or header.get("alg") != "HS256":
            raise bad
        expected = hmac.new(settings["secret"].encode(), f"{head}.{payload}".encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(given, expected):
            raise bad
        # RFC 7519 §4.1.4-4.1.6: exp, nbf and iat are NumericDates (finite JSON numbers, not
        # booleans); a token is refused after exp, before nbf, and when issued in the future
        # (beyond `jwtLeewaySeconds`, default 60, of clock difference).
        now, leeway = self.now(), float(self.config.get("jwtLeewaySeconds", 60))
        times = {name: claims.get(name) for name in ("exp", "nbf", "iat")}
        for name, value in times.items():
            if (value is not None or name == "exp") and not _numeric_date(value):
                raise bad
        if times["exp"] <= now:
            raise Rejection("Token has expired.")
        if times["nbf"] is not None and times["nbf"] > now + leeway:
            raise Rejection("Token is not yet valid.")
        if times["iat"] is not None and times["iat"] > now + leeway:
            raise Rejection("Token was issued in the future.")
        # RFC 7519 §4.1.3: `aud` is one string or an array of strings, one of which must be ours
        # (Cognito access tokens carry `client_id` instead).
        audience = claims.get("aud", claims.get("client_id"))
        audiences = audience if isinstance(audience, list) else [audience]
        if not all(isinstance(value, str) for value in audiences):
            raise bad
        if settings.get("audience") is not None and settings["audience"] not in audiences:
            raise bad
        # The username is informative only (owner rules read their own claims, `_owner_claims`):
        # `username`, else `cognito:username`, when it is a non-empty string.
        username = _claim_username(claims)
        # Every group claim a rule reads (and the default one) must have a shape groups can take
        # (`_group_values`); any other shape is a malformed token, never "no groups".
        group_claim = settings.get("groupClaim") or "cognito:groups"
        for claim in {group_claim, *getattr(self, "group_claims", set())}:
            if _group_values(claims.get(claim)) is None:
                raise bad
        return Identity(mode, username if isinstance(username, str) and username else None,
                        _group_values(claims.get(group_claim)) or [], claims)

    def _lambda(self, token: str) -> Identity:
        settings = self.config.get("lambda") or {}
        answer = (settings.get("tokens") or {}).get(token)
        if not answer or not answer.get("isAuthorized"):
            raise Rejection("You are not authorized to make this call.")
        return Identity("lambda", answer.get("principal"), [], {}, list(answer.get("deniedFields") or []))

    def _iam(self, method: str, path: str, headers: dict[str, str], body: bytes, authorization: str) -> Identity:
        settings = self.config.get("iam") or {}
        try:
            fields = dict(part.strip().split("=", 1) for part in authorization[len("AWS4-HMAC-SHA256 "):].split(","))
            access_key, day, region, service, terminator = fields["Credential"].split("/")
            signed = fields["SignedHeaders"].split(";")
            signature = fields["Signature"]
        except (KeyError, ValueError):
            raise Rejection("Authorization header requires 'Credential', 'SignedHeaders' and 'Signature'.",
                            "IncompleteSignatureException") from None
        credential = next((c for c in settings.get("credentials", []) if c["accessKeyId"] == access_key), None)
        if credential is None:
            raise Rejection("The security token included in the request is invalid.")
        if region != settings.get("region") or service != "appsync" or terminator != "aws4_request":
            raise Rejection("Credential should be scoped to a valid region and service.", "InvalidSignatureException")
        amz_date = headers.get("x-amz-date", "")
        try:
            signed_at = calendar.timegm(time.strptime(amz_date, "%Y%m%dT%H%M%SZ"))
        except ValueError:
            raise Rejection("Missing or malformed X-Amz-Date.", "IncompleteSignatureException") from None
        if abs(self.now() - signed_at) > self.max_skew or not amz_date.startswith(day):
            raise Rejection(f"Signature expired: {amz_date} is not within {int(self.max_skew)} seconds of the server's time.",
                            "InvalidSignatureException")
        if credential.get("sessionToken") is not None:
            if headers.get("x-amz-security-token") != credential["sessionToken"] or "x-amz-security-token" not in signed:
                raise Rejection("The security token included in the request is invalid.")
        if "host" not in signed or "x-amz-date" not in signed:
            raise Rejection("host and x-amz-date must be signed.", "InvalidSignatureException")
        raw_path, _, query = path.partition("?")
        canonical_path = "/".join(_uri_encode(unquote(segment)) for segment in raw_path.split("/")) or "/"
        pairs = []
        for pair in filter(None, query.split("&")):
            name, _, value = pair.partition("=")
            pairs.append((_uri_encode(unquote(name)), _uri_encode(unquote(value))))
        canonical_query = "&".join(f"{n}={v}" for n, v in sorted(pairs))
        canonical_headers = "".join(f"{name}:{' '.join(headers.get(name, '').split())}\n" for name in signed)
        canonical = "\n".join([method, canonical_path, canonical_query, canonical_headers, ";".join(signed),
                               hashlib.sha256(body).hexdigest()])
        scope = f"{day}/{region}/{service}/aws4_request"
        string_to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
        key = ("AWS4" + credential["secretAccessKey"]).encode()
        for step in (day, region, service, "aws4_request"):
            key = hmac.new(key, step.encode(), hashlib.sha256).digest()
        expected = hmac.new(key, string_to_sign.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, signature):
            raise Rejection("The request signature we calculated does not match the signature you provided.",
                            "InvalidSignatureException")
        return Identity("iam", credential.get("username", access_key))

    # -- authorization of fields

    def install(self, api: Any) -> None:
        """Wraps every field's resolver with the check of its @aws_* directives, and the model
        operations and rule-carrying fields with the configured @auth rules."""
        schema = api.schema
        self.schema = schema
        # The @auth rules the schema states come from its manifest (schema.local.json); a config's
        # own `modelRules`/`fieldRules` replace them (for schemas without a manifest).
        manifest_models = (getattr(api, "manifest", None) or {}).get("models") or {}
        model_rules = self.config.get("modelRules")
        if model_rules is None:
            model_rules = {name: entry["authRules"] for name, entry in manifest_models.items() if entry.get("authRules")}
        field_rules = self.config.get("fieldRules")
        if field_rules is None:
            field_rules = {name: entry["fieldAuthRules"] for name, entry in manifest_models.items()
                           if entry.get("fieldAuthRules")}
        config = getattr(self, "source", "--auth-config")
        validate_rules(model_rules, f"{config} modelRules" if "modelRules" in self.config else "manifest authRules",
                       field_rules, f"{config} fieldRules" if "fieldRules" in self.config else "manifest fieldAuthRules")
        self.model_rules = model_rules
        self.field_rules = field_rules
        every_rule = [r for rules in model_rules.values() for r in rules] + \
            [r for fields in field_rules.values() for rules in fields.values() for r in rules]
        self.group_claims = {r["groupClaim"] for r in every_rule if r.get("allow") == "groups" and r.get("groupClaim")}
        # One access-control matrix per model with model- or field-level rules (the transformer's
        # AccessControlMatrix): its fields are the manifest's `authFields`, else the type's fields
        # other than the timestamps and sync metadata.
        self.access = {}
        for model in {*model_rules, *field_rules}:
            type_ = schema.type_map.get(model)
            entry = manifest_models.get(model) or {}
            resources = entry.get("authFields")
            if resources is None:
                stamps = set((entry.get("timestamps") or {"createdAt": "createdAt", "updatedAt": "updatedAt"}).values())
                resources = [name for name in (type_.fields if type_ else {})
                             if name not in stamps and name not in ("_version", "_deleted", "_lastChangedAt")]
            self.access[model] = Access(model_rules.get(model) or [], field_rules.get(model) or {}, resources)
        for root in (schema.query_type, schema.mutation_type):
            for field_name, field_ in (root.fields if root else {}).items():
                spec = api.operation_spec(root.name, field_name)
                if spec and spec.get("model") in self.access:
                    field_.resolve = self._record_guard(api, spec["model"], spec["kind"], model_rules.get(spec["model"]) or [],
                                                        root.name, field_name, field_.resolve)
        # A relationship field reads the related model under that model's rules, as the
        # transformer's `protectRelationalResolver` does (`generateAuthExpressionForRelationQuery`):
        # the roles that may get, list, sync, search or listen to it; see `_relation_guard`.
        for type_name, type_ in schema.type_map.items():
            if not isinstance(type_, GraphQLObjectType) or type_name.startswith("__") or \
                    type_ in (schema.query_type, schema.mutation_type, schema.subscription_type):
                continue
            for field_name, field_ in type_.fields.items():
                relation = api.relation_spec(type_name, field_name, field_) if field_.ast_node is not None else None
                if relation and relation.get("model") in self.access:
                    field_.resolve = self._relation_guard(relation, type_name, field_name,
                                                          field_.resolve or default_field_resolver)
                # A relationship field whose readers differ from the related model's is null in
                # every mutation response and so in every subscription event (`relation_redacted`).
                level = (manifest_models.get(type_name) or {}).get("subscriptionLevel") or \
                    ("on" if _has_subscriptions(api, type_name) else "off")
                if relation and level == "on" and relation_redacted(self.access.get(type_name),
                                                                    self.access.get(relation.get("model")), field_name):
                    field_.resolve = _redacted_in_mutations(field_.resolve or default_field_resolver)
        # An owner field under a multi-part identity claim (`sub::username`) reads as its last part
        # (the username), as the transformer's owner field resolver presents it
        # (`addFieldResolverForDynamicAuth`, `generateFieldResolverForOwner`); the stored value and
        # every check keep the whole `<sub>::<username>`.
        for model in {*model_rules, *field_rules}:
            type_ = schema.type_map.get(model)
            rules = list(model_rules.get(model) or []) + [r for rs in (field_rules.get(model) or {}).values() for r in rs]
            for name in {r.get("ownerField") or "owner" for r in rules
                         if r.get("allow") == "owner" and "::" in self.identity_claim(r)}:
                field_ = type_.fields.get(name) if type_ else None
                if field_ is not None:
                    field_.resolve = _presented_owner(field_.resolve or default_field_resolver)
        # With field rules, every field of the matrix is read under its own rules (its field rules,
        # else the model's): a role that reaches the model through one field's rules reads the
        # others as null with Unauthorized (the transformer's protectFieldResolver for each field
        # some read role may not read).
        # A protected field (one that some reader of the model may not read) of a model whose
        # subscriptions are on reads as null in every mutation response and so in every
        # subscription event; see `redacted_fields`.
        self.redacted = {}
        # The auth transformer protects a model's subscriptions only at level `on`
        # (`getSubscriptionFieldNames` and `protectSchemaOperations`: no auth resolver, directives
        # or owner arguments otherwise): at `public` its rules refuse no `start` and filter no event.
        self.subscription_levels = {
            model: (manifest_models.get(model) or {}).get("subscriptionLevel") or
            ("on" if _has_subscriptions(api, model) else "off")
            for model in self.access}
        for model, fields in field_rules.items():
            type_ = schema.type_map.get(model)
            access = self.access[model]
            level = self.subscription_levels[model]
            self.redacted[model] = redacted_fields(access) if level == "on" else set()
            for field_name in access.resources:
                field_ = type_.fields.get(field_name) if type_ else None
                rules = access.rules_of(field_name)
                if field_ is not None and any(fields.values()):
                    field_.resolve = self._field_rule_guard(model, field_name, rules, field_name in self.redacted[model],
                                                            field_.resolve or default_field_resolver)
        roots = {schema.query_type, schema.mutation_type, schema.subscription_type}
        for type_name, type_ in schema.type_map.items():
            if not isinstance(type_, GraphQLObjectType) or type_name.startswith("__"):
                continue
            type_rules = _mode_rules(type_.ast_node)
            for field_name, field_ in type_.fields.items():
                rules = _mode_rules(field_.ast_node) or (None if type_ in roots else type_rules)
                field_.resolve = self._guard(type_name, field_name, rules, field_.resolve or default_field_resolver)

    def _guard(self, type_name: str, field_name: str, rules: dict[str, list[str] | None] | None,
               resolve: Callable) -> Callable:
        def guarded(source: Any, info: Any, **args: Any) -> Any:
            identity = (info.context or {}).get("identity") if isinstance(info.context, dict) else None
            if identity is not None and not self.allows(identity, rules, f"{type_name}.{field_name}"):
                raise FieldUnauthorized(f"Not Authorized to access {field_name} on type {type_name}")
            return resolve(source, info, **args)

        return guarded

    def allows(self, identity: Identity, rules: dict[str, list[str] | None] | None, field_path: str) -> bool:
        if field_path in identity.denied_fields:
            return False
        if rules is None:
            return identity.mode == self.default_mode
        if identity.mode not in rules:
            return False
        groups = rules[identity.mode]
        return not groups or bool(set(groups) & set(identity.groups))


    # -- @auth rules over records

    def identity_claim(self, rule: dict) -> str:
        """The identity claim of an owner rule: as written, else the transformer's default
        `sub::username` (`useSubUsernameForDefaultIdentityClaim`, DEFAULT_UNIQUE_IDENTITY_CLAIM), or
        the provider's `identityClaim` setting in the config (e.g. `username`, the older default)."""
        settings = self.config.get(_rule_mode(rule)) or {}
        return rule.get("identityClaim") or settings.get("identityClaim") or "sub::username"

    def _owner_claims(self, identity: Identity, rule: dict) -> tuple[str, set[str]]:
        """The caller's owner value under an owner rule and every stored owner value that is the
        caller's, as the transformer's resolvers compute them (graphql-auth-transformer
        `generateOwnerClaimExpression`, `generateOwnerMultiClaimExpression`,
        `generateOwnerClaimListExpression`, `getOwnerClaim`): the identity claim is split at `::`;
        `username` reads the token's `username`, else `cognito:username`; any other part is that
        claim. The owner value joins the parts with `::` (`"<sub>::<username>"` by default), and a
        stored owner matches when it equals that value or, for a claim of several parts, any one
        part (a record stored as the username or the sub). A part that is missing or not a string,
        or (for a claim of several parts) that holds `::` itself, makes the token own nothing:
        `(___xamznone____, set())` — never a fall back to another claim, so that identities from
        two claims cannot collide. An empty part stays in the owner value (`"<sub>::"`, as
        `$util.defaultIfNull` keeps "") but never matches alone, since "" would name every token
        whose part is empty; a claim whose parts are all empty owns nothing."""
        values = []
        parts = self.identity_claim(rule).split("::")
        for part in parts:
            value = _claim_username(identity.claims) if part == "username" else identity.claims.get(part)
            # A part holding `::` owns nothing too: it would stand for a whole owner value (a
            # username "sub-a::alice" would match alice's records). Stricter than the transformer.
            if not isinstance(value, str) or (len(parts) > 1 and "::" in value):
                return NO_IDENTITY, set()
            values.append(value)
        # An empty part is a value, as `$util.defaultIfNull` keeps it (`username: ""` is not null,
        # so `cognito:username` is not read): the owner value keeps it (`"<sub>::"`), which still
        # names one caller. But "" alone would name every token with that part empty, so it is no
        # owner value by itself: a claim whose parts are all empty owns nothing (stricter than
        # the transformer, which would match records owned by "").
        owner = "::".join(values)
        named = {value for value in values if value}
        if not named:
            return NO_IDENTITY, set()
        return owner, {owner, *named} if len(values) > 1 else {owner}

    def _owner_value(self, identity: Identity, rule: dict) -> str:
        """The caller's owner value under `rule`, or the transformer's `___xamznone____` sentinel
        when the token lacks a part of the identity claim (it never matches a record)."""
        return self._owner_claims(identity, rule)[0]

    def _groups(self, identity: Identity, rule: dict) -> set[str]:
        """The caller's groups under `rule`'s group claim (default `cognito:groups`); the token's
        shape was checked when it authenticated (`_group_values`)."""
        claim = rule.get("groupClaim")
        if claim and claim != "cognito:groups":
            return set(_group_values(identity.claims.get(claim)) or [])
        return set(identity.groups)

    def _matches_record(self, identity: Identity, rule: dict, record: dict) -> bool:
        if rule["allow"] == "owner":
            owner = record.get(rule.get("ownerField") or "owner")
            owners = owner if isinstance(owner, list) else [owner]
            return any(value in owners for value in self._owner_claims(identity, rule)[1])
        if rule["allow"] == "groups" and rule.get("groupsField"):
            value = record.get(rule["groupsField"]) or []
            return bool(set([value] if isinstance(value, str) else value) & self._groups(identity, rule))
        return False

    def _unconditional(self, identity: Identity, rule: dict) -> bool:
        if rule["allow"] in ("public", "private", "custom"):
            return True
        return rule["allow"] == "groups" and not rule.get("groupsField") and bool(set(rule.get("groups") or []) & self._groups(identity, rule))

    def _filters(self, identity: Identity, record_rules: list[dict]) -> bool:
        """Whether the caller's owner and dynamic group rules make an auth filter at all, as the
        transformer's query, relation and subscription resolvers build it (`generateAuthFilter`):
        an owner rule adds one only when the token holds its identity claim (not
        `___xamznone____`), a dynamic group rule only when the group claim names a group. A caller
        that no static role lets in and that makes no filter is refused (`$util.unauthorized()`
        when `!$isAuthorized && $util.isNull($ctx.stash.authFilter)`) — never an empty list, a
        null or a silent subscription. A static group rule the caller lacks makes no filter."""
        for rule in record_rules:
            if rule["allow"] == "owner" and self._owner_value(identity, rule) != NO_IDENTITY:
                return True
            if rule["allow"] == "groups" and rule.get("groupsField") and self._groups(identity, rule):
                return True
        return False

    def _applicable(self, identity: Identity, rules: list[dict], operation: str) -> list[dict]:
        return [r for r in rules if _rule_mode(r) == identity.mode and _covers(r, operation)]

    def _record_guard(self, api: Any, model_name: str, kind: str, rules: list[dict], type_name: str,
                      field_name: str, resolve: Callable) -> Callable:
        # SYNC: a versioned model's sync<Plural> query (versioned.py), filtered like a list.
        operation = {"GET": "get", "LIST": "list", "INDEX": "list", "SYNC": "sync", "CREATE": "create",
                     "UPDATE": "update", "DELETE": "delete"}[kind]
        model = api.models[model_name]

        def refuse() -> None:
            raise FieldUnauthorized(f"Not Authorized to access {field_name} on type {type_name}")

        access = self.access[model_name]
        # An update is open to the roles that may update or delete some field (the transformer's
        # protectUpdateResolver: `getRolesPerOperation('update')` with `('delete')`).
        roles = access.roles(operation) + ([r for r in access.roles("delete") if r not in access.roles("update")]
                                           if operation == "update" else [])

        def guarded(source: Any, info: Any, **args: Any) -> Any:
            identity = info.context.get("identity") if isinstance(info.context, dict) else None
            if identity is None:
                return resolve(source, info, **args)
            # The roles that may perform the operation on some field of the model (on every field
            # for a delete), whether model- or field-level rules grant it: a role of field rules
            # only passes here, and the field checks then limit it to its fields.
            mine = self._applicable(identity, roles, operation)
            if not mine:
                refuse()
            unconditional = any(self._unconditional(identity, r) for r in mine)
            if unconditional and kind not in ("CREATE", "UPDATE"):
                return resolve(source, info, **args)
            record_rules = [r for r in mine if r["allow"] == "owner" or (r["allow"] == "groups" and r.get("groupsField"))]
            if kind in ("GET", "LIST", "INDEX", "SYNC") and not self._filters(identity, record_rules):
                refuse()
            if kind == "CREATE":
                # The owner fields are filled (and the caller's field access decided) as the
                # transformer's create auth resolver does it; see `_authorize_create`.
                if not self._authorize_create(identity, model, args["input"]):
                    refuse()
                return resolve(source, info, **args)
            if kind in ("UPDATE", "DELETE"):
                key = [args["input"].get(name) for name in model.primary_key]
                # The check and the write are one critical section (`api.lock`, re-entrant: the
                # write takes it again), as AppSync's update and delete resolvers make them one
                # conditional DynamoDB write: no other write may change the record between the
                # check of its owner and the write that relies on it.
                with api.lock:
                    existing = api.store.get(model_name, key)
                    # Decided by the stored record, as the transformer's update and delete auth
                    # resolvers read it (`$ctx.result.<ownerField>` of the record loaded first),
                    # never by the input: a caller no static role lets write is refused another's
                    # record, and a key with no stored record (no owner to match:
                    # `$util.unauthorized()`).
                    if not unconditional and (existing is None or
                                              not any(self._matches_record(identity, r, existing) for r in record_rules)):
                        refuse()
                    if kind == "UPDATE" and existing is not None and \
                            not self._authorize_update(identity, model, args["input"], existing):
                        refuse()
                    pause = info.context.get("pause_after_check_ms")
                    if pause:
                        # Test hook (`x-test-pause-after-check-ms`): widens the window between the
                        # check and the write, in which no other write may land.
                        time.sleep(pause / 1000)
                    return resolve(source, info, **args)
            result = resolve(source, info, **args)
            if kind == "GET":
                if result is not None and not any(self._matches_record(identity, r, result) for r in record_rules):
                    refuse()
                return result
            items = [item for item in result["items"] if any(self._matches_record(identity, r, item) for r in record_rules)]
            return {**result, "items": items}

        return guarded

    def _relation_guard(self, spec: dict, type_name: str, field_name: str, resolve: Callable) -> Callable:
        """A relationship field (`spec`: the server's relation spec, `model` the related model)
        under the related model's @auth rules, as the transformer's `protectRelationalResolver`
        and `generateAuthExpressionForRelationQuery` apply them: the roles are those that may
        perform a read operation (READ_OPERATIONS) on some field of the related model; a caller
        none of whose mode holds gets null with `Unauthorized` ("Not Authorized to access <field>
        on type <Type>"); a public, private, custom or static group role reads every related
        record; owner and dynamic group roles become a filter: a hasMany connection keeps only the
        records they match, and a belongsTo or hasOne record they do not match reads as null with
        `Unauthorized` (never another caller's record)."""
        access = self.access[spec["model"]]
        keyed: dict[tuple, dict] = {}
        for operation in READ_OPERATIONS:
            for key, rule in access.keyed_roles(operation):
                keyed.setdefault(key, rule)
        roles = list(keyed.values())
        many = spec["kind"] == "HAS_MANY"

        def refuse() -> None:
            raise FieldUnauthorized(f"Not Authorized to access {field_name} on type {type_name}")

        def guarded(source: Any, info: Any, **args: Any) -> Any:
            identity = info.context.get("identity") if isinstance(info.context, dict) else None
            if identity is None:
                return resolve(source, info, **args)
            mine = self._applicable(identity, roles, "get")
            if not mine:
                refuse()
            if any(self._unconditional(identity, r) for r in mine):
                return resolve(source, info, **args)
            record_rules = [r for r in mine if r["allow"] == "owner" or (r["allow"] == "groups" and r.get("groupsField"))]
            if not self._filters(identity, record_rules):
                refuse()
            result = resolve(source, info, **args)
            if many:
                items = [item for item in result["items"]
                         if any(self._matches_record(identity, r, item) for r in record_rules)]
                return {**result, "items": items}
            if result is not None and not any(self._matches_record(identity, r, result) for r in record_rules):
                refuse()
            return result

        return guarded

    def _grants(self, identity: Identity, model: Any, operations: tuple[str, ...]) -> list[tuple[tuple, dict]]:
        """The roles of the caller's mode that may perform one of `operations` on some field, each
        with its rule, in the order the transformer's resolvers test them: static roles (public,
        private, custom, static groups) first, then owner roles, then dynamic group roles."""
        access = self.access[model.name]
        keyed: dict[tuple, dict] = {}
        for operation in operations:
            for key, rule in access.keyed_roles(operation):
                if _rule_mode(rule) == identity.mode:
                    keyed.setdefault(key, rule)
        rank = {"owner": 1, "groups": 2}
        return sorted(keyed.items(), key=lambda item: 0 if _static_rule(item[1]) else rank[item[1]["allow"]])

    def _authorize_create(self, identity: Identity, model: Any, input_: dict) -> bool:
        """The transformer's create auth resolver (graphql-auth-transformer
        `generateAuthExpressionForCreate`, `protectCreateResolver`), step for step. Each role of the
        caller's mode that may create some field allows its fields (`allowedFields`: the matrix's
        fields it may create, plus the fields the transformer adds to every role,
        `addAutoGeneratedFields`: an input field outside the matrix that is not a primary key field),
        or authorizes the whole input when it may create every field of the matrix:
        - a static role (public, private, custom, a static group the token holds) always;
        - an owner role when the input's owner field names the caller; when the input has no owner
          field at all, the role fills it with the caller's owner value (`generatePopulateOwnerField`)
          and allows its fields, whether or not an earlier role authorized the caller
          (`populateOwnerFieldForStaticGroupAuth`, on by default): the owner is filled even for a
          caller whose only role for the protected field is this owner rule;
        - a dynamic group role when the input's groups field holds one of the token's groups.
        Not authorized and nothing allowed: refused at the model level (returns False). Otherwise an
        input field (as sent, before the owner is filled) no role allows is refused with
        FieldUnauthorized("Unauthorized on [a, b]"). An implicit `id` (not in the matrix, as
        `collectFieldNames` reads the fields as written) is allowed only with the whole input: a
        role of field rules that sends it is refused "Unauthorized on [id]", as AppSync does."""
        access = self.access[model.name]
        written = list(input_)
        automatic = {name for name in written if name not in access.resources and name not in model.primary_key}
        authorized = False
        allowed: set[str] = set()

        def grant(key: tuple) -> None:
            nonlocal authorized
            fields = access.allowed(key, ("create",))
            if len(fields) == len(access.resources):
                authorized = True
            else:
                allowed.update(fields)

        for key, rule in self._grants(identity, model, ("create",)):
            if _static_rule(rule):
                if self._unconditional(identity, rule):
                    grant(key)
                continue
            if rule["allow"] == "owner":
                field = rule.get("ownerField") or "owner"
                owner = self._owner_value(identity, rule)
                if owner == NO_IDENTITY:
                    continue
                absent = input_.get(field) is None and field not in input_
                value = [owner] if self._is_list_field(model.name, field) else owner
                if authorized:
                    if absent:
                        input_[field] = value
                    continue
                if self._matches_record(identity, rule, input_):
                    grant(key)
                elif absent:
                    input_[field] = value
                    grant(key)
            elif not authorized and self._matches_record(identity, rule, input_):
                grant(key)
        if authorized:
            return True
        if not allowed:
            return False
        denied = [name for name in written if name not in allowed and name not in automatic]
        if denied:
            raise FieldUnauthorized(f"Unauthorized on [{', '.join(denied)}]")
        return True

    def _authorize_update(self, identity: Identity, model: Any, input_: dict, record: dict) -> bool:
        """The transformer's update auth resolver (`generateAuthExpressionForUpdate`,
        `protectUpdateResolver`) over the stored record: each role of the caller's mode that may
        update or delete some field and that the record meets (static roles always; owner and
        dynamic group roles by the record's owner or groups field) allows its fields for an update
        (`allowedFields`: the fields it may update, the primary key and the fields outside the
        matrix) and for null (`nullAllowedFields`: the fields it may delete), or authorizes the
        whole input when it may update and delete every field of the matrix. Nothing allowed:
        refused at the model level (returns False). Otherwise a field no role allows, or set to
        null without delete, is refused with FieldUnauthorized("Unauthorized on [a, b]")."""
        access = self.access[model.name]
        authorized = False
        allowed: set[str] = set()
        null_allowed: set[str] = set()
        for key, rule in self._grants(identity, model, ("update", "delete")):
            if authorized:
                break
            if not (self._unconditional(identity, rule) if _static_rule(rule) else self._matches_record(identity, rule, record)):
                continue
            updatable = access.allowed(key, ("update",))
            nullable = access.allowed(key, ("delete",))
            if len(updatable) == len(access.resources) and len(nullable) == len(access.resources):
                authorized = True
            else:
                allowed.update(updatable)
                null_allowed.update(nullable)
        if authorized:
            return True
        if not allowed and not null_allowed:
            return False
        open_fields = {name for name in input_ if name not in access.resources} | set(model.primary_key)
        denied = [name for name, value in input_.items()
                  if (value is None and name not in null_allowed) or (name not in allowed and name not in open_fields)]
        if denied:
            raise FieldUnauthorized(f"Unauthorized on [{', '.join(denied)}]")
        return True

    def _is_list_field(self, model: str, field: str) -> bool:
        """Whether `model`'s field `field` is a list (an owner field `[String]`)."""
        type_ = getattr(self, "schema", None) and self.schema.type_map.get(model)
        field_ = type_.fields.get(field) if type_ is not None else None
        if field_ is None:
            return False
        inner = field_.type.of_type if isinstance(field_.type, GraphQLNonNull) else field_.type
        return isinstance(inner, GraphQLList)

    # -- @auth rules over subscriptions

    def _subscription_rules(self, api: Any, field_name: str, identity: Identity) -> tuple[bool, list[dict]] | None:
        """For a subscription field of a model with @auth rules: whether the identity's rules allow
        every event outright, and its owner/group rules; None when the model has no rules."""
        spec = api.operation_spec("Subscription", field_name)
        access = (getattr(self, "access", None) or {}).get(spec.get("model")) if spec else None
        if access is None or self.subscription_levels.get(spec.get("model")) not in (None, "on"):
            return None
        mine = self._applicable(identity, access.roles("listen"), "listen")
        unconditional = any(self._unconditional(identity, r) for r in mine)
        return unconditional, [r for r in mine if r["allow"] == "owner" or (r["allow"] == "groups" and r.get("groupsField"))]

    def subscription_refusal(self, api: Any, field_name: str, arguments: dict, identity: Identity) -> str | None:
        """Why a `start` is refused by the model's @auth rules, or None. As the transformer's
        subscription resolvers do: a caller no rule of its mode lets read the model is refused, and
        so is an owner argument naming someone else when no public/private/static-group rule lets
        the caller read every record."""
        found = self._subscription_rules(api, field_name, identity)
        if found is None:
            return None
        unconditional, record_rules = found
        if unconditional:
            return None
        if not self._filters(identity, record_rules):
            # No static role, and no owner claim or group to filter by (a static group the
            # caller lacks, a token without the identity or groups claim): refused, as the
            # transformer's subscription resolver does — never acknowledged and silent.
            return f"Not Authorized to access {field_name} on type Subscription"
        for rule in record_rules:
            if rule["allow"] != "owner":
                continue
            given = arguments.get(rule.get("ownerField") or "owner")
            if given is not None and given not in self._owner_claims(identity, rule)[1]:
                return f"Not Authorized to access {field_name} on type Subscription"
        owner_rules = [r for r in record_rules if r["allow"] == "owner"]
        if (self.require_owner_argument and len(owner_rules) == len(record_rules)
                and all(arguments.get(r.get("ownerField") or "owner") is None for r in owner_rules)):
            return f"Not Authorized to access {field_name} on type Subscription: the owner argument is required"
        return None

    def subscription_delivers(self, api: Any, field_name: str, identity: Identity, record: dict) -> bool:
        """Whether an event's record reaches a subscriber: every record for an outright rule, else
        only the records its owner or dynamic group rules let it read."""
        found = self._subscription_rules(api, field_name, identity)
        if found is None:
            return True
        unconditional, record_rules = found
        return unconditional or any(self._matches_record(identity, r, record) for r in record_rules)

    def _field_rule_guard(self, model: str, field_name: str, rules: list[dict], redacted: bool,
                          resolve: Callable) -> Callable:
        """A field of a model with field rules, read under `rules` (its own, else the model's): a
        caller none of whose rules of its mode lets it read the record's field gets null with
        `Unauthorized`. A `redacted` field (`redacted_fields`) of a record a mutation returned
        (`OPERATION_KEY`) is null for every caller, after that check (the transformer's field
        request template runs first, then its response template returns null for a Mutation
        source); in a subscription event it is null with no error, as AppSync sends subscribers
        the mutation's response and runs no field resolver per subscriber."""
        def guarded(source: Any, info: Any, **args: Any) -> Any:
            from_mutation = redacted and isinstance(source, dict) and source.get(OPERATION_KEY) == "Mutation"
            if from_mutation and info.operation.operation == OperationType.SUBSCRIPTION:
                return None
            identity = info.context.get("identity") if isinstance(info.context, dict) else None
            if info.operation.operation == OperationType.SUBSCRIPTION and isinstance(source, dict) and \
                    source.get(OPERATION_KEY) == "Mutation":
                # An event (level `public`: not redacted) carries the mutation's response, the
                # field as its rules resolved it for the mutation's caller: null (with no error
                # here) when that caller may not read it, whoever subscribes.
                identity = source.get(MUTATOR_KEY)
                if identity is not None:
                    mine = self._applicable(identity, rules, "get")
                    if not any(self._unconditional(identity, r) or self._matches_record(identity, r, source) for r in mine):
                        return None
                return resolve(source, info, **args)
            if identity is not None:
                mine = self._applicable(identity, rules, "get")
                if not any(self._unconditional(identity, r) or self._matches_record(identity, r, source or {}) for r in mine):
                    raise FieldUnauthorized(f"Not Authorized to access {field_name} on type {model}")
            if from_mutation:
                return None
            return resolve(source, info, **args)

        return guarded


MUTATOR_KEY = "__mutator"
"""The key under which a mutation's record carries the mutation's caller (an `Identity`, or None),
for subscription events (server.py `API._published`): AppSync publishes the mutation's response, so
an event holds each field as the field rules resolved it for the caller of the mutation; no schema
field reads it."""

OPERATION_KEY = "__operation"
"""The key a mutation's record carries in its response (server.py `API._published`), as the Amplify
model transformer's mutation resolvers add `__operation: "Mutation"` to their result
(graphql-model-transformer `OPERATION_KEY`); no schema field reads it."""


def _has_subscriptions(api: Any, model: str) -> bool:
    """Whether the served schema has a subscription field of `model` (the manifest's, else none:
    a schema without a manifest names no subscription's model)."""
    root = api.schema.subscription_type
    return any((api.operation_spec("Subscription", name) or {}).get("model") == model
               for name in (root.fields if root else {}))


def redacted_fields(access: "Access") -> set[str]:
    """The fields of a model with field rules that its mutations return as null, for every caller,
    when its subscriptions are on (`@model(subscriptions:)` level `on`, the default), so that no
    subscriber receives a field it may not read.

    The rule is the Amplify auth transformer's (v2, `protectFieldResolver` with
    `generateFieldAuthResponse('Mutation', …, subscriptionsEnabled)`: "Checking for allowed
    operations which can return this field", null when `$ctx.source.__operation == "Mutation"`),
    documented in Amplify's "Set up authorization rules", section "Per-Field with Subscriptions":
    "the Transformer will alter the response of mutations for those fields by setting them to null
    in order to prevent sensitive data from being sent over subscriptions". A field gets that
    resolver when some read role of the model may not read it (`needsFieldResolver`:
    `allowedRoles.length < fieldReadRoles.length`). The read roles are the roles that may `get`
    some field: the transformer writes `new Set(...READ_MODEL_OPERATIONS.map(getRolesPerOperation))`,
    and a Set built from several arrays keeps only the first (get's). A user-pool (or OIDC)
    `private` role that may perform every read operation on the field stands for the other roles
    of its provider (`getReadRolesForField`). A role is allowed the field when it may perform a
    read operation on it."""
    read_roles = [key for key, _ in access.keyed_roles("get")]
    redacted = set()
    for name in access.resources:
        roles = list(read_roles)
        for provider in ("userPools", "oidc"):
            private = (provider, "private")
            if private in roles and all(name in access.allowed(private, (op,)) for op in READ_OPERATIONS):
                roles = [key for key in roles if key[0] != provider or key == private]
        allowed = [key for key in roles if name in access.allowed(key, READ_OPERATIONS)]
        if len(allowed) < len(roles):
            redacted.add(name)
    return redacted


def relation_redacted(parent: "Access | None", related: "Access | None", field_name: str) -> bool:
    """Whether the relationship field `field_name` of a model whose subscriptions are on is null in
    every mutation response (and so in every subscription event), as the auth transformer since
    amplify-category-api PR #2536 redacts it while `subscriptionsInheritPrimaryAuth` is false (its
    default): "whenever it cannot be determined that the child model will be protected by the same
    permissions as the parent model" (Amplify docs, "Data modeling"; the subscription protection
    that `setDeniedFieldFlag('Mutation', …)` adds to the relational resolver).

    A field with its own rules that some read role of the model may not read is redacted (the
    field-level protection). Otherwise the field's read roles (the model's roles that may `get`,
    reading the field; a user-pool or OIDC `private` role reading it fully stands for its
    provider's other roles) are compared with the related model's read roles, IAM roles left out
    on both sides (the transformer's own test table has `public iam` over `private iam`
    unredacted). It is redacted when a static role (public, private, a static group) is not among
    the related model's, when a dynamic group or custom (Lambda) role reads it, or when an owner
    role reads it beside any other role. This decision reproduces every case of the transformer's
    published table (`relational-field-redaction.test.ts`, 14 rule pairs); the transformer's code
    itself is not reproduced."""
    if parent is None or related is None:
        return False
    read_roles = [key for key, _ in parent.keyed_roles("get")]
    roles = [key for key in read_roles if field_name in parent.allowed(key, READ_OPERATIONS)]
    for provider in ("userPools", "oidc"):
        private = (provider, "private")
        if private in roles and all(field_name in parent.allowed(private, (op,)) for op in READ_OPERATIONS):
            roles = [key for key in roles if key[0] != provider or key == private]
    if field_name in parent.field_rules and len(roles) < len(read_roles):
        return True
    related_roles = {key for op in READ_OPERATIONS for key, _ in related.keyed_roles(op)}
    roles = [key for key in roles if key[0] != "iam"]
    static = [key for key in roles if key[1] in ("public", "private", "staticGroup")]
    if any(key not in related_roles for key in static):
        return True
    if any(key[1] in ("dynamicGroup", "custom") for key in roles):
        return True
    return any(key[1] == "owner" for key in roles) and len(roles) > 1


def _redacted_in_mutations(resolve: Callable) -> Callable:
    """A relationship field that reads as null on a record a mutation returned (`OPERATION_KEY`):
    in the mutation's response after the relational check (`resolve`, which may still refuse the
    caller with `Unauthorized`: the transformer sets the denied-field flag before its relational
    auth expression, which runs), and with no error in the subscription events carrying it (no
    resolver runs per subscriber); as `resolve` reads it everywhere else."""
    def redacted(source: Any, info: Any, **args: Any) -> Any:
        if isinstance(source, dict) and source.get(OPERATION_KEY) == "Mutation":
            if info.operation.operation != OperationType.SUBSCRIPTION:
                resolve(source, info, **args)
            return None
        return resolve(source, info, **args)

    return redacted


def presented_owner(value: Any) -> Any:
    """A stored owner value as the transformer's owner field resolver returns it: the part after
    the last `::` (each element's, for a list); other values unchanged."""
    if isinstance(value, str):
        return value.split("::")[-1]
    if isinstance(value, list):
        return [presented_owner(element) for element in value]
    return value


def _presented_owner(resolve: Callable) -> Callable:
    def presented(source: Any, info: Any, **args: Any) -> Any:
        return presented_owner(resolve(source, info, **args))

    return presented


def _claim_username(claims: dict) -> Any:
    """The token's `username` claim, else its `cognito:username` (the transformer's `getOwnerClaim`
    for `username`: the second only when the first is absent); may be any JSON value or None."""
    value = claims.get("username")
    return claims.get("cognito:username") if value is None else value


def _group_values(value: Any) -> list[str] | None:
    """The groups a group claim's value names, or None when it is malformed. As the transformer's
    dynamic group resolvers read a claim (`$util.isString` then `$util.parseJson`): absent (null)
    is no groups; a list is its groups; a string holding a JSON list is that list, any other string
    one group. Every group must be a non-empty string. Anything else (a number, a boolean such as
    `false` or `0`, an object, an empty string, a list holding a non-string or "") is malformed:
    the token is refused (HTTP 401), never read as "no groups"."""
    if value is None:
        return []
    if isinstance(value, str):
        try:
            parsed = _json(value.encode())
        except (ValueError, RecursionError):
            parsed = None
        value = parsed if isinstance(parsed, list) else [value]
    if not isinstance(value, list) or not all(isinstance(group, str) and group for group in value):
        return None
    return list(value)


READ_OPERATIONS = ("get", "list", "sync", "listen", "search")
"""What `read` covers in a rule's `operations` (the transformer's READ_MODEL_OPERATIONS)."""


def _covers(rule: dict, operation: str) -> bool:
    """Whether `rule` grants `operation` (no `operations` grants all; `read` covers READ_OPERATIONS)."""
    operations = rule.get("operations")
    if operations is None:
        return True
    return operation in operations or (operation in READ_OPERATIONS and "read" in operations)


def _static_rule(rule: dict) -> bool:
    """Whether a rule's role is static (public, private, custom, static groups): it holds for a
    caller whatever the record (the transformer's `RoleDefinition.static`)."""
    return rule["allow"] in ("public", "private", "custom") or (rule["allow"] == "groups" and not rule.get("groupsField"))


def _roles(rule: dict) -> list[tuple[tuple, dict]]:
    """The roles a rule makes, as the transformer's `convertRulesToRoles` names them (one per
    static group), each with a rule standing for it alone."""
    mode = _rule_mode(rule)
    if rule["allow"] == "groups" and not rule.get("groupsField"):
        claim = rule.get("groupClaim") or "cognito:groups"
        return [((mode, "staticGroup", group, claim), {**rule, "groups": [group]}) for group in rule.get("groups") or []]
    if rule["allow"] == "groups":
        return [((mode, "dynamicGroup", rule["groupsField"], rule.get("groupClaim") or "cognito:groups"), rule)]
    if rule["allow"] == "owner":
        return [((mode, "owner", rule.get("ownerField") or "owner", rule.get("identityClaim")), rule)]
    return [((mode, rule["allow"]), rule)]


class Access:
    """One model's access-control matrix, as the transformer's AccessControlMatrix holds it: which
    role may perform which operation on which field. A field's own @auth rules replace the model's
    for that field (`resetAccessForResource`); the other fields of `resources` have the model's."""

    def __init__(self, model_rules: list[dict], field_rules: dict[str, list[dict]], resources: list[str]) -> None:
        self.model_rules = model_rules
        self.field_rules = {name: rules for name, rules in field_rules.items() if rules}
        self.resources = list(resources) or list(self.field_rules)

    def rules_of(self, field_name: str) -> list[dict]:
        """The rules that apply to a field: its own, else the model's."""
        return self.field_rules.get(field_name) or self.model_rules

    def keyed_roles(self, operation: str) -> list[tuple[tuple, dict]]:
        """`roles(operation)` with each role's key (`convertRulesToRoles`' role name)."""
        allowed: dict[tuple, list[bool]] = {}
        representative: dict[tuple, dict] = {}
        for index, name in enumerate(self.resources):
            for rule in self.rules_of(name):
                for key, role in _roles(rule):
                    representative.setdefault(key, {**role, "operations": None})
                    cells = allowed.setdefault(key, [False] * len(self.resources))
                    cells[index] = cells[index] or _covers(rule, operation)
        every = operation == "delete"
        return [(key, representative[key]) for key, cells in allowed.items() if (all(cells) if every else any(cells))]

    def allowed(self, key: tuple, operations: tuple[str, ...]) -> list[str]:
        """The fields of the matrix on which the role `key` may perform one of `operations`
        (`acm.isAllowed(role, field, operation)`)."""
        return [name for name in self.resources
                if any(role_key == key and any(_covers(rule, operation) for operation in operations)
                       for rule in self.rules_of(name) for role_key, _ in _roles(rule))]

    def roles(self, operation: str) -> list[dict]:
        """The roles (one rule each) that may perform `operation` on some field, or on every field
        for `delete` (`getRolesPerOperation(operation, operation === 'delete')`)."""
        allowed: dict[tuple, list[bool]] = {}
        representative: dict[tuple, dict] = {}
        for index, name in enumerate(self.resources):
            for rule in self.rules_of(name):
                for key, role in _roles(rule):
                    # The matrix decided the operation: the role's rule stands for it whatever
                    # operations the first rule naming it wrote.
                    representative.setdefault(key, {**role, "operations": None})
                    cells = allowed.setdefault(key, [False] * len(self.resources))
                    cells[index] = cells[index] or _covers(rule, operation)
        every = operation == "delete"
        return [representative[key] for key, cells in allowed.items() if (all(cells) if every else any(cells))]


NO_IDENTITY = "___xamznone____"
"""The owner value of a caller whose token lacks the identity claim, as the Amplify transformer's
resolvers set it (`$util.defaultIfNull(..., "___xamznone____")`): it matches no record."""


def _json(data: bytes) -> Any:
    """Strict JSON (RFC 8259): `NaN`, `Infinity` and `-Infinity` are not JSON and raise ValueError."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    return json.loads(data, parse_constant=refuse)


def _numeric_date(value: Any) -> bool:
    """Whether `value` is an RFC 7519 NumericDate: a finite JSON number (a boolean is not one)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _rule_mode(rule: dict) -> str:
    """The mode of a rule's provider, with the transformer's defaults."""
    provider = rule.get("provider")
    if provider is None:
        return {"public": "apiKey", "custom": "lambda"}.get(rule["allow"], "userPools")
    return {"function": "lambda", "identityPool": "iam"}.get(provider, provider)


def _mode_rules(node: Any) -> dict[str, list[str] | None] | None:
    """The modes a type or field's @aws_* directives allow (user pools with its groups), or None."""
    if node is None:
        return None
    rules: dict[str, list[str] | None] = {}
    for directive in node.directives or []:
        mode = MODE_DIRECTIVES.get(directive.name.value)
        if mode is None:
            continue
        groups = None
        for argument in directive.arguments or []:
            if argument.name.value == "cognito_groups":
                groups = [value.value for value in getattr(argument.value, "values", [])]
        rules[mode] = groups
    return rules or None


def mode_rules(node: Any) -> dict[str, list[str] | None] | None:
    """The modes (and Cognito groups) a field's or type's `@aws_*` directives allow; None when it has none."""
    return _mode_rules(node)


STRATEGY_PROVIDERS = {
    "public": ("apiKey", "iam", "identityPool"),
    "private": ("userPools", "oidc", "iam", "identityPool"),
    "owner": ("userPools", "oidc"),
    "groups": ("userPools", "oidc"),
    "custom": ("function",),
}
"""The providers each strategy supports, as the auth transformer validates them (owner and groups
need a user pool or OIDC token; public the API key or IAM; private a user pool, OIDC or IAM)."""

MODEL_OPERATIONS = ("create", "update", "delete", "read", *READ_OPERATIONS)


class ConfigError(Exception):
    """@auth rules (the manifest's or the config's `modelRules`/`fieldRules`) the transformer would
    reject: every problem, one a line, each naming where the rule is and how to fix it."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def rule_problems(rule: Any, where: str, field_level: bool = False) -> list[str]:
    """Why one @auth rule at `where` (`modelRules.Notice[1]`) is invalid, as the auth transformer
    checks it (`validateRules`: strategy, provider per strategy, operations, groups; granular read
    operations only on models: "'get' operation is not allowed at the field level"); empty when
    it is valid."""
    if not isinstance(rule, dict):
        return [f"{where}: a rule must be an object with 'allow'"]
    problems = []
    allow = rule.get("allow")
    if allow not in STRATEGY_PROVIDERS:
        return [f"{where}: unknown strategy allow: {json.dumps(allow)}; use one of {', '.join(STRATEGY_PROVIDERS)}"]
    provider = rule.get("provider")
    if provider is not None and provider not in STRATEGY_PROVIDERS[allow]:
        problems.append(f"{where}: provider {json.dumps(provider)} is not valid for allow: {allow}; "
                        f"use one of {', '.join(STRATEGY_PROVIDERS[allow])}")
    operations = rule.get("operations")
    if operations is not None:
        if not isinstance(operations, list) or not operations:
            problems.append(f"{where}: operations must be a non-empty list (it would grant nothing)")
        else:
            for operation in operations:
                if operation not in MODEL_OPERATIONS:
                    problems.append(f"{where}: unknown operation {json.dumps(operation)}; "
                                    f"use one of {', '.join(MODEL_OPERATIONS)}")
                elif field_level and operation in READ_OPERATIONS:
                    problems.append(f"{where}: '{operation}' operation is not allowed at the field level; use 'read'")
    if allow == "groups":
        groups = rule.get("groups")
        if rule.get("groupsField") is None and (not isinstance(groups, list) or not groups):
            problems.append(f"{where}: allow: groups needs a non-empty 'groups' list or a 'groupsField'")
    return problems


def validate_rules(model_rules: Any, model_source: str, field_rules: Any, field_source: str) -> None:
    """Raises ConfigError with every invalid rule of `model_rules` ({model: [rule]}, read from
    `model_source`: the config's `modelRules` or the manifest's `authRules`) and `field_rules`
    ({model: {field: [rule]}}, from `field_source`); returns when all are valid."""
    problems: list[str] = []
    if not isinstance(model_rules, dict):
        problems.append(f"{model_source}: must be an object of model name to a list of rules")
        model_rules = {}
    if not isinstance(field_rules, dict):
        problems.append(f"{field_source}: must be an object of model name to field name to rules")
        field_rules = {}
    for model, rules in sorted(model_rules.items()):
        for index, rule in enumerate(rules if isinstance(rules, list) else [rules]):
            problems += rule_problems(rule, f"{model_source}: {model} rule {index + 1}")
    for model, fields in sorted(field_rules.items()):
        if not isinstance(fields, dict):
            problems.append(f"{field_source}: {model}: must be an object of field name to rules")
            continue
        for name, rules in sorted(fields.items()):
            for index, rule in enumerate(rules if isinstance(rules, list) else [rules]):
                problems += rule_problems(rule, f"{field_source}: {model}.{name} rule {index + 1}", field_level=True)
    if problems:
        raise ConfigError(problems)


def load(path: str) -> Authorizer:
    with open(path, encoding="utf-8") as file:
        authorizer = Authorizer(json.load(file))
    authorizer.source = path
    return authorizer
