"""Property checks on the SAM template (infra/template.yaml) and its CloudFormation translation.

Each check returns a list of problems (empty = pass). The checks run on the real
templates, and then on deliberately broken copies to show that each check does catch
what it is for. Prints one PASS/FAIL line per check, a closing count, and exits
non-zero on any failure.

usage: check_template.py SAM_TEMPLATE TRANSLATED.json REPO_ROOT
"""

import copy
import json
import re
import sys
import tomllib
from pathlib import Path

from samtranslator.yaml_helper import yaml_parse

# The routes the function serves (HTTP API refuses a route key ending in "/", so
# "POST /mcp/" is served through the greedy route under /mcp/).
EXPECTED_ROUTES = {
    "POST /mcp",
    "POST /mcp/{proxy+}",
    "GET /mcp",
    "GET /.well-known/oauth-protected-resource",
    "GET /.well-known/oauth-protected-resource/mcp",
    # The origin's icon, which clients show beside the connector.
    "GET /favicon.ico",
    "GET /icon.svg",
    # The privacy page: what is stored, for how long, whom to write to.
    "GET /privacy",
    # The builtin authorization server (dochiya-authserver): RFC 8414 metadata at the
    # origin, and every endpoint and page under /oauth/.
    "GET /.well-known/oauth-authorization-server",
    "ANY /oauth/{proxy+}",
    # The person's own page (a redirect into /oauth/account).
    "GET /account",
}

# The configuration variables the app reads (shared/app/src/config.rs and the crates' from_lookup).
CONTRACT_ENV = {
    "DOCHIYA_TABLE",
    "DOCHIYA_DATA_DIR",
    "DOCHIYA_PORT",
    "DOCHIYA_RESOURCE_URL",
    "DOCHIYA_AUTH",
    "DOCHIYA_ISSUER",
    "DOCHIYA_JWKS_URL",
    "DOCHIYA_AUTHORIZATION_SERVERS",
    "DOCHIYA_DEV_SECRET",
    "DOCHIYA_ALLOWED_ORIGINS",
    "DOCHIYA_STRICT_VERSION_HEADER",
    "DOCHIYA_LOG",
    "DOCHIYA_IDEMPOTENCY_TTL_DAYS",
    # the builtin authorization server (dochiya-authserver's from_lookup)
    "DOCHIYA_SIGNING_KEY_ID",
    "DOCHIYA_OIDC_ISSUER",
    "DOCHIYA_OIDC_CLIENT_ID",
    "DOCHIYA_OIDC_CLIENT_SECRET",
    "DOCHIYA_OIDC_SCOPES",
    "DOCHIYA_DCR_PER_HOUR",
    # the recurring entries' scheduled run (shared/app/src/config.rs)
    "DOCHIYA_POST_DUE_EVERY_SECS",
    "DOCHIYA_POST_DUE_MAX_VAULTS",
    # the privacy page's contact (shared/app/src/config.rs)
    "DOCHIYA_SUPPORT_CONTACT",
}
# What the Lambda must be given.
REQUIRED_ENV = {
    "DOCHIYA_TABLE",
    "DOCHIYA_RESOURCE_URL",
    "DOCHIYA_AUTH",
    "DOCHIYA_ISSUER",
    "DOCHIYA_JWKS_URL",
    "DOCHIYA_AUTHORIZATION_SERVERS",
    "DOCHIYA_LOG",
    "DOCHIYA_SIGNING_KEY_ID",
    "DOCHIYA_OIDC_ISSUER",
    "DOCHIYA_OIDC_CLIENT_ID",
}
# Local-only settings that have no business in a deployed function.
FORBIDDEN_ENV = {"DOCHIYA_DEV_SECRET", "DOCHIYA_DATA_DIR", "DOCHIYA_PORT"}

# aws-sdk-dynamodb call (as written in the store's source) -> the IAM actions it needs.
# TransactWriteItems / TransactGetItems have no IAM action of their own: each item is
# authorised as the matching single-item action.
SDK_CALL_ACTIONS = {
    r"\.get_item\(\)": {"dynamodb:GetItem"},
    r"\.batch_get_item\(\)": {"dynamodb:BatchGetItem"},
    r"\.query\(\)": {"dynamodb:Query"},
    r"\.scan\(\)": {"dynamodb:Scan"},
    r"\.put_item\(\)": {"dynamodb:PutItem"},
    r"\.update_item\(\)": {"dynamodb:UpdateItem"},
    r"\.delete_item\(\)": {"dynamodb:DeleteItem"},
    r"\.batch_write_item\(\)": {"dynamodb:BatchWriteItem"},
    # dochiya-store-dynamodb's start-up check that the table exists with the right keys.
    r"\.describe_table\(\)": {"dynamodb:DescribeTable"},
    r"\bGet::builder\(\)": {"dynamodb:GetItem"},
    r"\bPut::builder\(\)": {"dynamodb:PutItem"},
    r"\bUpdate::builder\(\)": {"dynamodb:UpdateItem"},
    r"\bDelete::builder\(\)": {"dynamodb:DeleteItem"},
    r"\bConditionCheck::builder\(\)": {"dynamodb:ConditionCheckItem"},
}


# aws-sdk-kms calls in dochiya-authserver's shipped code -> the IAM actions they need.
KMS_CALL_ACTIONS = {
    r"\.get_public_key\(\)": {"kms:GetPublicKey"},
    r"\.sign\(\)\s*\.key_id": {"kms:Sign"},
    r"\.verify\(\)\s*\.key_id": {"kms:Verify"},
    r"\.encrypt\(\)": {"kms:Encrypt"},
    r"\.decrypt\(\)": {"kms:Decrypt"},
}

# Table provisioning calls the store offers for local runs and tests. In AWS the stack
# owns the table, so the function must never hold these.
PROVISIONING_ACTIONS = {
    "dynamodb:CreateTable",
    "dynamodb:DeleteTable",
    "dynamodb:UpdateTable",
    "dynamodb:UpdateTimeToLive",
    "dynamodb:UpdateContinuousBackups",
}

# Until dochiya-store-dynamodb has code, the grant is checked against the operations
# the Store trait maps to (docs/design.md section 7): get, get_many, query, and one atomic
# write of puts, updates, deletes and condition checks; plus the start-up table check.
PLANNED_STORE_ACTIONS = {
    "dynamodb:DescribeTable",
    "dynamodb:GetItem",
    "dynamodb:BatchGetItem",
    "dynamodb:Query",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:ConditionCheckItem",
}

# What the scheduled run of recurring entries (PostDueFunction) does with the table,
# and nothing more: the start-up table check; a due-index shard and a vault's schedules
# (Query); a vault's settings and recurring head (BatchGetItem); a schedule re-read after
# a lost race (GetItem); a posting's items and the head's move (Put/Update/Delete, inside
# TransactWriteItems). No ConditionCheckItem: a posting creates, it never voids.
POST_DUE_ACTIONS = {
    "dynamodb:DescribeTable",
    "dynamodb:GetItem",
    "dynamodb:BatchGetItem",
    "dynamodb:Query",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
}
# The partitions it may touch: vaults (V#<id>) and the due index (DUE#<nn>).
POST_DUE_LEADING_KEYS = ["V#*", "DUE#*"]
# The env of the scheduled function: the table and the log filter (and its cap).
POST_DUE_ENV = {"DOCHIYA_TABLE", "DOCHIYA_LOG", "DOCHIYA_POST_DUE_MAX_VAULTS"}

# Explanations printed once after the checks (a check may run many times).
NOTES = set()

# ---------------------------------------------------------------- helpers


def resources_of(template, rtype):
    return {k: v for k, v in template.get("Resources", {}).items() if v.get("Type") == rtype}


def the_function(cfn):
    fns = resources_of(cfn, "AWS::Lambda::Function")
    return fns.get("McpFunction")


def env_of(cfn):
    fn = the_function(cfn) or {}
    return fn.get("Properties", {}).get("Environment", {}).get("Variables", {})


def statements(doc):
    st = doc.get("Statement", [])
    return st if isinstance(st, list) else [st]


def all_policy_statements(cfn):
    """Yield (where, statement) for every inline IAM policy statement in the template."""
    for name, res in cfn.get("Resources", {}).items():
        props = res.get("Properties", {})
        if res.get("Type") == "AWS::IAM::Role":
            for pol in props.get("Policies", []):
                # A conditional policy (Fn::If [cond, policy, AWS::NoValue]) counts as
                # granted: a check must hold when the condition is on.
                if isinstance(pol, dict) and "Fn::If" in pol:
                    pol = pol["Fn::If"][1]
                for st in statements(pol.get("PolicyDocument", {})):
                    yield f"{name}/{pol.get('PolicyName')}", st
        elif res.get("Type") in ("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy"):
            for st in statements(props.get("PolicyDocument", {})):
                yield name, st


def as_list(v):
    return v if isinstance(v, list) else [v]


def rust_code_outside_tests(path):
    """The file's code without `#[cfg(test)]` items (unit tests may create tables
    against the emulator; only the shipped code counts)."""
    text = path.read_text(encoding="utf-8")
    out = []
    pos = 0
    marker = "#[cfg(test)]"
    while (start := text.find(marker, pos)) != -1:
        out.append(text[pos:start])
        # The item ends at `;` (e.g. `mod tests;`) or at the brace closing its body.
        i = start + len(marker)
        depth = 0
        while i < len(text):
            ch = text[i]
            if ch == ";" and depth == 0:
                i += 1
                break
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    i += 1
                    break
            i += 1
        pos = i
    out.append(text[pos:])
    return "".join(out)


def store_actions(root):
    """IAM actions implied by the DynamoDB calls in dochiya-store-dynamodb's shipped code."""
    needed = set()
    for src in sorted((root / "shared/store-dynamodb/src").rglob("*.rs")):
        code = rust_code_outside_tests(src)
        for pattern, actions in SDK_CALL_ACTIONS.items():
            if re.search(pattern, code):
                needed |= actions
    return needed


def kms_actions(root):
    """IAM actions implied by the KMS calls in dochiya-authserver's shipped code."""
    needed = set()
    for src in sorted((root / "shared/authserver/src").rglob("*.rs")):
        code = rust_code_outside_tests(src)
        for pattern, actions in KMS_CALL_ACTIONS.items():
            if re.search(pattern, code):
                needed |= actions
    return needed


def code_env_names(root):
    """DOCHIYA_* names the shipped code reads. dochiya-app is the only crate that touches
    the environment, but other crates' `from_lookup` parsers name their own variables."""
    names = set()
    for src in sorted(root.glob("shared/*/src/**/*.rs")) + sorted(root.glob("functions/*/src/**/*.rs")):
        names |= set(re.findall(r'"(DOCHIYA_[A-Z_]+)"', rust_code_outside_tests(src)))
    return names


# ---------------------------------------------------------------- checks
# Each takes (sam, cfn, root) and returns a list of problems.


def check_routes(sam, cfn, root):
    problems = []
    routes = resources_of(cfn, "AWS::ApiGatewayV2::Route")
    keys = {r["Properties"].get("RouteKey") for r in routes.values()}
    if keys != EXPECTED_ROUTES:
        problems.append(f"route keys {sorted(keys)} != expected {sorted(EXPECTED_ROUTES)}")
    integrations = resources_of(cfn, "AWS::ApiGatewayV2::Integration")
    for name, r in routes.items():
        p = r["Properties"]
        target = p.get("Target", {})
        sub = target.get("Fn::Sub") if isinstance(target, dict) else None
        m = re.fullmatch(r"integrations/\$\{(\w+)\}", sub or "")
        if not m or m.group(1) not in integrations:
            problems.append(f"{name}: target {target!r} is not one of the integrations")
        if p.get("AuthorizationType", "NONE") != "NONE":
            problems.append(f"{name}: a gateway authorizer would hide the function's 401 challenge")
    # API Gateway may invoke the function, and only from this API.
    perms = [
        r["Properties"]
        for r in resources_of(cfn, "AWS::Lambda::Permission").values()
        if r["Properties"].get("FunctionName") == {"Ref": "McpFunction"}
    ]
    if not perms:
        problems.append("no permission for API Gateway to invoke McpFunction")
    for perm in perms:
        source = json.dumps(perm.get("SourceArn"))
        if perm.get("Principal") != "apigateway.amazonaws.com" or "${HttpApi}/" not in source:
            problems.append(f"invoke permission {perm} is not limited to this API")
    for name, i in integrations.items():
        p = i["Properties"]
        if p.get("IntegrationUri") != {"Fn::GetAtt": ["McpFunction", "Arn"]}:
            problems.append(f"{name}: integration does not invoke McpFunction")
        if p.get("IntegrationType") != "AWS_PROXY" or p.get("PayloadFormatVersion") != "2.0":
            problems.append(f"{name}: expected AWS_PROXY with payload format 2.0")
    return problems


def check_stage(sam, cfn, root):
    problems = []
    stages = resources_of(cfn, "AWS::ApiGatewayV2::Stage")
    if len(stages) != 1:
        return [f"expected one stage, found {len(stages)}"]
    (name, stage), = stages.items()
    p = stage["Properties"]
    if p.get("StageName") != "$default":
        problems.append(f"stage {p.get('StageName')!r}: a named stage prefixes the path and breaks the RFC 9728 metadata path")
    if p.get("AutoDeploy") is not True:
        problems.append("stage must auto-deploy route changes")
    drs = p.get("DefaultRouteSettings", {})
    for key in ("ThrottlingRateLimit", "ThrottlingBurstLimit"):
        if key not in drs:
            problems.append(f"no {key} in DefaultRouteSettings")
    if "AccessLogSettings" not in p:
        problems.append("no access log")
    for name, m in resources_of(cfn, "AWS::ApiGatewayV2::ApiMapping").items():
        if m["Properties"].get("ApiMappingKey"):
            problems.append(f"{name}: a base path breaks the RFC 9728 metadata path")
    return problems


def check_function(sam, cfn, root):
    problems = []
    fn = the_function(cfn)
    if fn is None:
        return ["no AWS::Lambda::Function McpFunction"]
    p = fn["Properties"]
    if p.get("Architectures") != ["arm64"]:
        problems.append(f"Architectures {p.get('Architectures')!r} != ['arm64']")
    if p.get("Runtime") != "provided.al2023":
        problems.append(f"Runtime {p.get('Runtime')!r} != 'provided.al2023'")
    if p.get("Handler") != "bootstrap":
        problems.append(f"Handler {p.get('Handler')!r} != 'bootstrap'")
    # How `sam build` makes the binary (from the SAM source, which keeps CodeUri).
    src = sam["Resources"].get("McpFunction", {})
    meta = src.get("Metadata", {})
    if meta.get("BuildMethod") != "rust-cargolambda":
        problems.append(f"BuildMethod {meta.get('BuildMethod')!r} != 'rust-cargolambda'")
    binary = meta.get("BuildProperties", {}).get("Binary")
    code_uri = src.get("Properties", {}).get("CodeUri")
    if not isinstance(code_uri, str):
        problems.append(f"CodeUri {code_uri!r} is not a local path")
    else:
        manifest = (root / "infra" / code_uri / "Cargo.toml").resolve()
        if not manifest.is_file():
            problems.append(f"CodeUri {code_uri!r} has no Cargo.toml")
        else:
            cargo = tomllib.loads(manifest.read_text(encoding="utf-8"))
            bins = {b.get("name") for b in cargo.get("bin", [])} or {cargo["package"]["name"]}
            if binary not in bins:
                problems.append(f"BuildProperties.Binary {binary!r} not among the package's binaries {sorted(bins)}")
    # cargo-lambda's --release silently applies panic=abort, thin LTO, one codegen unit
    # and stripping for every key the workspace's [profile.release] leaves unset. The
    # workspace chose panic=unwind (a panic fails one request, not the warm instance),
    # so each key must stay explicit there.
    workspace = tomllib.loads((root / "Cargo.toml").read_text(encoding="utf-8"))
    release = workspace.get("profile", {}).get("release", {})
    unset = [k for k in ("panic", "lto", "codegen-units", "strip") if k not in release]
    if unset:
        problems.append(f"[profile.release] leaves {unset} to cargo-lambda's defaults (panic=abort, ...)")
    timeout_ms = p.get("Timeout", 3) * 1000
    for name, i in resources_of(cfn, "AWS::ApiGatewayV2::Integration").items():
        limit = i["Properties"].get("TimeoutInMillis", 30000)
        if not timeout_ms < limit <= 30000:
            problems.append(f"function timeout {timeout_ms} ms must be below {name}'s {limit} ms (max 30000)")
    return problems


def check_table(sam, cfn, root):
    problems = []
    tables = resources_of(cfn, "AWS::DynamoDB::Table")
    if len(tables) != 1:
        return [f"expected one table, found {len(tables)}"]
    (name, t), = tables.items()
    p = t["Properties"]
    if t.get("DeletionPolicy") != "Retain" or t.get("UpdateReplacePolicy") != "Retain":
        problems.append("DeletionPolicy and UpdateReplacePolicy must both be Retain")
    if p.get("PointInTimeRecoverySpecification", {}).get("PointInTimeRecoveryEnabled") is not True:
        problems.append("point-in-time recovery is off")
    if p.get("DeletionProtectionEnabled") is not True:
        problems.append("deletion protection is off")
    if p.get("SSESpecification", {}).get("SSEEnabled") is not True:
        problems.append("SSESpecification.SSEEnabled is not true")
    if p.get("BillingMode") != "PAY_PER_REQUEST":
        problems.append(f"BillingMode {p.get('BillingMode')!r} != PAY_PER_REQUEST")
    attrs = {a["AttributeName"]: a["AttributeType"] for a in p.get("AttributeDefinitions", [])}
    keys = {k["AttributeName"]: k["KeyType"] for k in p.get("KeySchema", [])}
    if attrs != {"PK": "S", "SK": "S"} or keys != {"PK": "HASH", "SK": "RANGE"}:
        problems.append(f"key schema {keys} / attributes {attrs} != PK (S, hash), SK (S, range)")
    if p.get("GlobalSecondaryIndexes") or p.get("LocalSecondaryIndexes"):
        problems.append("the contract has no secondary indexes")
    ttl = p.get("TimeToLiveSpecification", {})
    if ttl.get("AttributeName") != "expiresAt" or ttl.get("Enabled") is not True:
        problems.append(f"TTL {ttl} is not enabled on expiresAt")
    # The attribute the code writes must be the one the table expires on.
    store_mod = root / "shared/store/src/lib.rs"
    m = re.search(r'TTL_ATTRIBUTE:\s*&str\s*=\s*"([^"]+)"', store_mod.read_text(encoding="utf-8"))
    if not m:
        problems.append("TTL_ATTRIBUTE not found in dochiya-store")
    elif m.group(1) != ttl.get("AttributeName"):
        problems.append(f"code's TTL_ATTRIBUTE {m.group(1)!r} != table TTL attribute {ttl.get('AttributeName')!r}")
    return problems


def check_iam_no_wildcard_actions(sam, cfn, root):
    problems = []
    found = 0
    for where, st in all_policy_statements(cfn):
        found += 1
        if "NotAction" in st:
            problems.append(f"{where}: NotAction grants everything else")
        for action in as_list(st.get("Action", [])):
            if not isinstance(action, str) or "*" in action or "?" in action:
                problems.append(f"{where}: action {action!r} is a wildcard or not a literal")
    if found == 0:
        problems.append("no IAM policy statements found")
    for name, role in resources_of(cfn, "AWS::IAM::Role").items():
        if role["Properties"].get("ManagedPolicyArns"):
            problems.append(f"{name}: managed policies cannot be checked for wildcards")
    # SAM policy templates / managed policy names on the function expand to broad grants.
    src = sam["Resources"].get("McpFunction", {}).get("Properties", {})
    if "Policies" in src:
        problems.append("McpFunction uses SAM Policies; the explicit role is the whole grant")
    return problems


def check_iam_dynamodb_matches_store(sam, cfn, root):
    problems = []
    granted = set()
    for where, st in all_policy_statements(cfn):
        # The scheduled run's role is checked on its own (check_post_due_iam).
        if where.startswith("PostDueFunctionRole/"):
            continue
        actions = {a for a in as_list(st.get("Action", [])) if isinstance(a, str)}
        ddb = {a for a in actions if a.startswith("dynamodb:")}
        if not ddb:
            continue
        granted |= ddb
        for res in as_list(st.get("Resource")):
            ok = res == {"Fn::GetAtt": ["LedgerTable", "Arn"]} or (
                isinstance(res, dict)
                and "Fn::If" in res
                and res["Fn::If"][2] == {"Fn::GetAtt": ["LedgerTable", "Arn"]}
                and "table/${ExistingTableName}" in json.dumps(res["Fn::If"][1])
            )
            if not ok:
                problems.append(f"{where}: DynamoDB resource {res!r} is not (only) the ledger table")
    needed = store_actions(root)
    source = "store-dynamodb's calls"
    if not needed:
        NOTES.add("dochiya-store-dynamodb makes no DynamoDB calls yet: IAM checked against the planned Store operations")
        needed = PLANNED_STORE_ACTIONS
        source = "the planned Store operations"
    missing = needed - granted
    if missing:
        problems.append(f"{source} need {sorted(missing)}, which the role does not grant")
    extra = granted - needed
    if extra:
        problems.append(f"role grants {sorted(extra)}, beyond {source}")
    provisioning = granted & PROVISIONING_ACTIONS
    if provisioning:
        problems.append(f"role may change the table itself: {sorted(provisioning)}")
    return problems


def check_kms_signing_key(sam, cfn, root):
    problems = []
    keys = resources_of(cfn, "AWS::KMS::Key")
    key = keys.get("SigningKey")
    if key is None:
        return ["no AWS::KMS::Key SigningKey"]
    p = key["Properties"]
    if p.get("KeySpec") != "ECC_NIST_P256" or p.get("KeyUsage") != "SIGN_VERIFY":
        problems.append(f"SigningKey is {p.get('KeySpec')}/{p.get('KeyUsage')}, not ECC_NIST_P256/SIGN_VERIFY (ES256)")
    granted = set()
    for where, st in all_policy_statements(cfn):
        actions = {a for a in as_list(st.get("Action", [])) if isinstance(a, str)}
        kms = {a for a in actions if a.startswith("kms:")}
        if not kms:
            continue
        granted |= kms
        for res in as_list(st.get("Resource")):
            if res != {"Fn::GetAtt": ["SigningKey", "Arn"]}:
                problems.append(f"{where}: KMS resource {res!r} is not (only) the signing key")
    needed = kms_actions(root)
    if not needed:
        problems.append("dochiya-authserver makes no KMS calls: the signing key would be unused")
    if needed - granted:
        problems.append(f"the authorization server calls {sorted(needed - granted)}, which the role does not grant")
    if granted - needed:
        problems.append(f"role grants {sorted(granted - needed)}, beyond the authorization server's KMS calls")
    env = env_of(cfn)
    if json.dumps({"Fn::GetAtt": ["SigningKey", "Arn"]}) not in json.dumps(env.get("DOCHIYA_SIGNING_KEY_ID")):
        problems.append("DOCHIYA_SIGNING_KEY_ID does not name SigningKey")
    return problems


def check_sign_in(sam, cfn, root):
    """The default sign-in: the stack's Cognito pool, admin-created users unless the
    parameter says otherwise, one code-flow client whose callback is ours."""
    problems = []
    pools = resources_of(cfn, "AWS::Cognito::UserPool")
    clients = resources_of(cfn, "AWS::Cognito::UserPoolClient")
    if len(pools) != 1 or len(clients) != 1:
        return [f"expected one user pool and one client, found {len(pools)} and {len(clients)}"]
    (_, pool), = pools.items()
    (_, client), = clients.items()
    admin_only = pool["Properties"].get("AdminCreateUserConfig", {}).get("AllowAdminCreateUserOnly")
    if admin_only != {"Fn::If": ["SelfSignUp", False, True]}:
        problems.append(f"self-sign-up is not off unless AllowSelfSignUp says so: {admin_only!r}")
    if sam.get("Parameters", {}).get("AllowSelfSignUp", {}).get("Default") != "false":
        problems.append("AllowSelfSignUp does not default to false")
    c = client["Properties"]
    if c.get("AllowedOAuthFlows") != ["code"]:
        problems.append(f"client flows {c.get('AllowedOAuthFlows')!r} != ['code']")
    if c.get("GenerateSecret") is not False:
        problems.append("the client has a secret that would sit in the function's settings")
    callbacks = json.dumps(c.get("CallbackURLs"))
    if "/oauth/callback" not in callbacks or callbacks.count("http") > 2:
        problems.append(f"client callbacks {callbacks} are not exactly our /oauth/callback")
    env = env_of(cfn)
    if "UserPoolClient" not in json.dumps(env.get("DOCHIYA_OIDC_CLIENT_ID")):
        problems.append("DOCHIYA_OIDC_CLIENT_ID does not default to the stack's client")
    if "cognito-idp" not in json.dumps(env.get("DOCHIYA_OIDC_ISSUER")):
        problems.append("DOCHIYA_OIDC_ISSUER does not default to the stack's user pool")
    if sam.get("Parameters", {}).get("AuthMode", {}).get("Default") != "builtin":
        problems.append("AuthMode does not default to builtin")
    return problems


def check_env(sam, cfn, root):
    problems = []
    env = env_of(cfn)
    names = set(env)
    unknown = names - CONTRACT_ENV
    if unknown:
        problems.append(f"not in the configuration contract: {sorted(unknown)}")
    missing = REQUIRED_ENV - names
    if missing:
        problems.append(f"missing: {sorted(missing)}")
    forbidden = names & FORBIDDEN_ENV
    if forbidden:
        problems.append(f"local-only settings in the Lambda: {sorted(forbidden)}")
    # The mode is a parameter that can only be builtin or jwt: never dev in Lambda.
    mode = env.get("DOCHIYA_AUTH")
    allowed = sam.get("Parameters", {}).get("AuthMode", {}).get("AllowedValues")
    if mode != {"Ref": "AuthMode"} or sorted(allowed or []) != ["builtin", "jwt"]:
        problems.append(f"DOCHIYA_AUTH {mode!r} is not the AuthMode parameter limited to builtin/jwt")
    read = code_env_names(root)
    if read:
        unread = names - read
        if unread:
            problems.append(f"set but never read by the code: {sorted(unread)}")
    else:
        NOTES.add("the code reads no DOCHIYA_* names yet: env checked against the contract only")
    return problems


def check_logs(sam, cfn, root):
    problems = []
    groups = resources_of(cfn, "AWS::Logs::LogGroup")
    for name, g in groups.items():
        if "RetentionInDays" not in g.get("Properties", {}):
            problems.append(f"{name}: no retention (logs would be kept forever)")
    fn = the_function(cfn) or {"Properties": {}}
    lg = fn["Properties"].get("LoggingConfig", {}).get("LogGroup")
    if not (isinstance(lg, dict) and lg.get("Ref") in groups):
        problems.append(f"function LoggingConfig.LogGroup {lg!r} is not a log group of this stack")
    return problems


def check_outputs(sam, cfn, root):
    problems = []
    outputs = cfn.get("Outputs", {})
    for key in ("McpUrl", "ProtectedResourceMetadataUrl"):
        if key not in outputs:
            problems.append(f"no output {key}")
    if problems:
        return problems
    # The advertised URL must be the audience the function checks, and the metadata
    # URL its RFC 9728 path-suffixed form.
    mcp = outputs["McpUrl"]["Value"]
    if mcp != env_of(cfn).get("DOCHIYA_RESOURCE_URL"):
        problems.append("output McpUrl differs from DOCHIYA_RESOURCE_URL")
    expected_meta = json.loads(
        json.dumps(mcp).replace("/mcp\"", "/.well-known/oauth-protected-resource/mcp\"")
    )
    if outputs["ProtectedResourceMetadataUrl"]["Value"] != expected_meta:
        problems.append("ProtectedResourceMetadataUrl is not the path-suffixed metadata URL of McpUrl")
    return problems


def _is_table(res):
    return res == {"Fn::GetAtt": ["LedgerTable", "Arn"]} or (
        isinstance(res, dict)
        and "Fn::If" in res
        and res["Fn::If"][2] == {"Fn::GetAtt": ["LedgerTable", "Arn"]}
        and "table/${ExistingTableName}" in json.dumps(res["Fn::If"][1])
    )


def _role_statements(cfn, role):
    return [st for where, st in all_policy_statements(cfn) if where.startswith(f"{role}/")]


def _handler_const(root):
    m = re.search(r'pub const HANDLER: &str = "([^"]+)"', (root / "shared/app/src/scheduled.rs").read_text(encoding="utf-8"))
    return m.group(1) if m else None


def check_post_due_schedule(sam, cfn, root):
    """An hourly EventBridge Scheduler schedule invokes the scheduled function with
    its time, through a role that may invoke only that function."""
    problems = []
    schedules = resources_of(cfn, "AWS::Scheduler::Schedule")
    if len(schedules) != 1:
        return [f"expected one AWS::Scheduler::Schedule, found {len(schedules)}"]
    (name, sched), = schedules.items()
    p = sched["Properties"]
    if p.get("ScheduleExpression") not in ("cron(0 * * * ? *)", "rate(1 hour)"):
        problems.append(f"{name}: ScheduleExpression {p.get('ScheduleExpression')!r} is not hourly")
    if p.get("State", "ENABLED") != "ENABLED":
        problems.append(f"{name}: the schedule is not enabled")
    target = p.get("Target", {})
    if target.get("Arn") != {"Fn::GetAtt": ["PostDueFunction", "Arn"]}:
        problems.append(f"{name}: target {target.get('Arn')!r} is not PostDueFunction")
    try:
        payload = json.loads(target.get("Input", ""))
    except ValueError:
        payload = None
    if not isinstance(payload, dict) or payload.get("scheduledTime") != "<aws.scheduler.scheduled-time>":
        problems.append(f"{name}: Input {target.get('Input')!r} does not carry scheduledTime from <aws.scheduler.scheduled-time>")
    if "RetryPolicy" not in target:
        problems.append(f"{name}: no RetryPolicy (a failed hour would wait for the next one silently)")
    role_ref = target.get("RoleArn")
    role = role_ref.get("Fn::GetAtt", [None])[0] if isinstance(role_ref, dict) else None
    roles = resources_of(cfn, "AWS::IAM::Role")
    if role not in roles:
        return problems + [f"{name}: RoleArn {role_ref!r} is not a role of this stack"]
    trust = statements(roles[role]["Properties"].get("AssumeRolePolicyDocument", {}))
    principals = [st.get("Principal") for st in trust]
    if principals != [{"Service": "scheduler.amazonaws.com"}]:
        problems.append(f"{role}: trusted by {principals}, not only scheduler.amazonaws.com")
    granted = _role_statements(cfn, role)
    wanted = {"Effect": "Allow", "Action": "lambda:InvokeFunction", "Resource": {"Fn::GetAtt": ["PostDueFunction", "Arn"]}}
    if granted != [wanted]:
        problems.append(f"{role}: grants {granted}, not only lambda:InvokeFunction on PostDueFunction")
    # Nobody else may invoke functions.
    for where, st in all_policy_statements(cfn):
        if not where.startswith(f"{role}/") and any(str(a).startswith("lambda:") for a in as_list(st.get("Action", []))):
            problems.append(f"{where}: grants {st.get('Action')!r}")
    return problems


def check_post_due_function(sam, cfn, root):
    """The scheduled run: the MCP function's own build, its handler, its own log
    group, and only the table and log settings."""
    problems = []
    fn = resources_of(cfn, "AWS::Lambda::Function").get("PostDueFunction")
    if fn is None:
        return ["no AWS::Lambda::Function PostDueFunction"]
    p = fn["Properties"]
    handler = _handler_const(root)
    if handler is None or p.get("Handler") != handler:
        problems.append(f"Handler {p.get('Handler')!r} != the app's scheduled handler {handler!r}")
    if p.get("Architectures") != ["arm64"] or p.get("Runtime") != "provided.al2023":
        problems.append(f"{p.get('Architectures')!r} {p.get('Runtime')!r} != ['arm64'] provided.al2023")
    if not 0 < p.get("Timeout", 3) <= 900:
        problems.append(f"Timeout {p.get('Timeout')!r} is not within Lambda's 900 s")
    src, mcp = sam["Resources"].get("PostDueFunction", {}), sam["Resources"].get("McpFunction", {})
    if src.get("Metadata") != mcp.get("Metadata") or src.get("Properties", {}).get("CodeUri") != mcp.get("Properties", {}).get("CodeUri"):
        problems.append("PostDueFunction is not built as McpFunction is (same CodeUri, BuildMethod, Binary)")
    if p.get("Role") != {"Fn::GetAtt": ["PostDueFunctionRole", "Arn"]}:
        problems.append(f"Role {p.get('Role')!r} is not PostDueFunctionRole")
    env = p.get("Environment", {}).get("Variables", {})
    if not set(env) <= POST_DUE_ENV or "DOCHIYA_TABLE" not in env:
        problems.append(f"env {sorted(env)} is not within {sorted(POST_DUE_ENV)} with DOCHIYA_TABLE")
    if env.get("DOCHIYA_TABLE") != env_of(cfn).get("DOCHIYA_TABLE"):
        problems.append("DOCHIYA_TABLE differs from McpFunction's")
    lg = p.get("LoggingConfig", {}).get("LogGroup")
    if lg != {"Ref": "PostDueFunctionLogGroup"}:
        problems.append(f"LoggingConfig.LogGroup {lg!r} is not PostDueFunctionLogGroup")
    return problems


def check_post_due_iam(sam, cfn, root):
    """The scheduled run's role: exactly the DynamoDB actions posting needs, on the
    table, item actions only on vault and due-index partitions; logs to its own group."""
    problems = []
    granted = set()
    for st in _role_statements(cfn, "PostDueFunctionRole"):
        actions = set(as_list(st.get("Action", [])))
        ddb = {a for a in actions if str(a).startswith("dynamodb:")}
        other = actions - ddb
        if other and (other != {"logs:CreateLogStream", "logs:PutLogEvents"} or st.get("Resource") != {"Fn::GetAtt": ["PostDueFunctionLogGroup", "Arn"]}):
            problems.append(f"grants {sorted(other)} on {st.get('Resource')!r}")
        if not ddb:
            continue
        granted |= ddb
        if not all(_is_table(r) for r in as_list(st.get("Resource"))):
            problems.append(f"DynamoDB resource {st.get('Resource')!r} is not (only) the ledger table")
        if ddb != {"dynamodb:DescribeTable"}:
            keys = st.get("Condition", {}).get("ForAllValues:StringLike", {}).get("dynamodb:LeadingKeys")
            if keys != POST_DUE_LEADING_KEYS or len(st.get("Condition", {})) != 1:
                problems.append(f"item actions {sorted(ddb)} are not limited to the partitions {POST_DUE_LEADING_KEYS}: {st.get('Condition')!r}")
    if granted != POST_DUE_ACTIONS:
        problems.append(f"grants {sorted(granted)}, not exactly {sorted(POST_DUE_ACTIONS)}")
    if not POST_DUE_ACTIONS <= (store_actions(root) or PLANNED_STORE_ACTIONS):
        problems.append("the scheduled run's actions are not all calls the store makes")
    # The partitions named are the ones the ledger's stored items are keyed by.
    stored = sorted((root / "shared/ledger/src/stored").glob("*.rs"))
    keys_rs = "".join(p.read_text(encoding="utf-8") for p in stored)
    for prefix in ("V#", "DUE#"):
        if f'format!("{prefix}{{' not in keys_rs:
            problems.append(f"shared/ledger/src/stored/ builds no {prefix} partition key")
    return problems


CHECKS = [
    ("routes: every expected route, one integration, no gateway authorizer, invoke permission", check_routes),
    ("stage: $default, throttling, access log, no base path", check_stage),
    ("function: arm64, provided.al2023, rust-cargolambda binary, release profile", check_function),
    ("table: PITR, deletion protection, TTL expiresAt, Retain, SSE", check_table),
    ("iam: no wildcard actions, no managed policies", check_iam_no_wildcard_actions),
    ("iam: DynamoDB actions = store-dynamodb calls, on the table only", check_iam_dynamodb_matches_store),
    ("env: contract names, required set, builtin or jwt", check_env),
    ("kms: ES256 key, GetPublicKey + Sign = the authorization server's calls, on that key only", check_kms_signing_key),
    ("sign-in: Cognito pool, self-sign-up off by default, one code-flow client on our callback", check_sign_in),
    ("logs: retention, function log group", check_logs),
    ("outputs: MCP URL = audience, metadata URL", check_outputs),
    ("schedule: hourly, scheduledTime in its input, a role that may invoke only PostDueFunction", check_post_due_schedule),
    ("post-due function: the same build, handler post-due, own log group, table and log env only", check_post_due_function),
    ("post-due iam: exactly the posting's DynamoDB actions, items only in V# and DUE# partitions", check_post_due_iam),
]


# ---------------------------------------------------------------- mutations
# Each breaks one property of the translated template; its check must then fail.


def _fn_props(cfn):
    return cfn["Resources"]["McpFunction"]["Properties"]


def _table(cfn):
    return next(iter(resources_of(cfn, "AWS::DynamoDB::Table").values()))


def _ddb_statement(cfn):
    for _, st in all_policy_statements(cfn):
        if any(str(a).startswith("dynamodb:") for a in as_list(st.get("Action", []))):
            return st
    raise LookupError("no DynamoDB statement")


def mut_x86(cfn):
    _fn_props(cfn)["Architectures"] = ["x86_64"]


def mut_runtime(cfn):
    _fn_props(cfn)["Runtime"] = "provided.al2"


def mut_drop_route(cfn):
    routes = resources_of(cfn, "AWS::ApiGatewayV2::Route")
    victim = next(k for k, r in routes.items() if r["Properties"]["RouteKey"] == "GET /.well-known/oauth-protected-resource/mcp")
    del cfn["Resources"][victim]


def mut_any_api_may_invoke(cfn):
    for r in resources_of(cfn, "AWS::Lambda::Permission").values():
        r["Properties"].pop("SourceArn", None)


def mut_named_stage(cfn):
    next(iter(resources_of(cfn, "AWS::ApiGatewayV2::Stage").values()))["Properties"]["StageName"] = "prod"


def mut_pitr_off(cfn):
    _table(cfn)["Properties"]["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] = False


def mut_unprotected(cfn):
    _table(cfn)["Properties"]["DeletionProtectionEnabled"] = False


def mut_ttl_name(cfn):
    _table(cfn)["Properties"]["TimeToLiveSpecification"]["AttributeName"] = "ttl"


def mut_delete_policy(cfn):
    _table(cfn)["DeletionPolicy"] = "Delete"


def mut_wildcard(cfn):
    _ddb_statement(cfn)["Action"] = ["dynamodb:*"]


def mut_extra_action(cfn):
    # Scan is never needed: the store only reads by key or by partition.
    _ddb_statement(cfn)["Action"] = list(_ddb_statement(cfn)["Action"]) + ["dynamodb:Scan"]


def mut_any_table(cfn):
    _ddb_statement(cfn)["Resource"] = "*"


def mut_env_typo(cfn):
    env = _fn_props(cfn)["Environment"]["Variables"]
    env["DOCHIYA_TABEL"] = env.pop("DOCHIYA_TABLE")


def mut_dev_auth(cfn):
    _fn_props(cfn)["Environment"]["Variables"]["DOCHIYA_AUTH"] = "dev"


def _kms_statement(cfn):
    for _, st in all_policy_statements(cfn):
        if any(str(a).startswith("kms:") for a in as_list(st.get("Action", []))):
            return st
    raise LookupError("no KMS statement")


def mut_kms_extra(cfn):
    _kms_statement(cfn)["Action"] = list(_kms_statement(cfn)["Action"]) + ["kms:Decrypt"]


def mut_kms_any_key(cfn):
    _kms_statement(cfn)["Resource"] = "*"


def mut_kms_rsa(cfn):
    cfn["Resources"]["SigningKey"]["Properties"]["KeySpec"] = "RSA_2048"


def mut_self_sign_up(cfn):
    next(iter(resources_of(cfn, "AWS::Cognito::UserPool").values()))["Properties"]["AdminCreateUserConfig"] = {
        "AllowAdminCreateUserOnly": False
    }


def mut_client_secret(cfn):
    next(iter(resources_of(cfn, "AWS::Cognito::UserPoolClient").values()))["Properties"]["GenerateSecret"] = True


def mut_implicit_flow(cfn):
    next(iter(resources_of(cfn, "AWS::Cognito::UserPoolClient").values()))["Properties"]["AllowedOAuthFlows"] = [
        "code",
        "implicit",
    ]


def mut_drop_as_route(cfn):
    routes = resources_of(cfn, "AWS::ApiGatewayV2::Route")
    victim = next(k for k, r in routes.items() if r["Properties"]["RouteKey"] == "ANY /oauth/{proxy+}")
    del cfn["Resources"][victim]


def mut_no_retention(cfn):
    next(iter(resources_of(cfn, "AWS::Logs::LogGroup").values()))["Properties"].pop("RetentionInDays")


def mut_output_url(cfn):
    cfn["Outputs"]["McpUrl"]["Value"] = {"Fn::Sub": "${HttpApi.ApiEndpoint}/mcp/"}


def mut_provisioning(cfn):
    _ddb_statement(cfn)["Action"] = list(_ddb_statement(cfn)["Action"]) + ["dynamodb:UpdateTimeToLive"]


def _schedule_target(cfn):
    return next(iter(resources_of(cfn, "AWS::Scheduler::Schedule").values()))["Properties"]["Target"]


def _post_due_items(cfn):
    return next(st for st in _role_statements(cfn, "PostDueFunctionRole") if "dynamodb:Query" in as_list(st.get("Action", [])))


def mut_schedule_targets_mcp(cfn):
    _schedule_target(cfn)["Arn"] = {"Fn::GetAtt": ["McpFunction", "Arn"]}


def mut_schedule_without_time(cfn):
    _schedule_target(cfn)["Input"] = "{}"


def mut_daily_schedule(cfn):
    next(iter(resources_of(cfn, "AWS::Scheduler::Schedule").values()))["Properties"]["ScheduleExpression"] = "rate(1 day)"


def mut_scheduler_invokes_anything(cfn):
    role = cfn["Resources"]["PostDueScheduleRole"]["Properties"]
    role["Policies"][0]["PolicyDocument"]["Statement"][0]["Resource"] = "*"


def mut_post_due_any_partition(cfn):
    _post_due_items(cfn).pop("Condition")


def mut_post_due_person_partitions(cfn):
    _post_due_items(cfn)["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"] = ["V#*", "DUE#*", "P#*"]


def mut_post_due_extra_action(cfn):
    st = _post_due_items(cfn)
    st["Action"] = list(st["Action"]) + ["dynamodb:ConditionCheckItem"]


def mut_post_due_kms(cfn):
    role = cfn["Resources"]["PostDueFunctionRole"]["Properties"]
    role["Policies"].append({"PolicyName": "x", "PolicyDocument": {"Statement": [{"Effect": "Allow", "Action": "kms:Sign", "Resource": {"Fn::GetAtt": ["SigningKey", "Arn"]}}]}})


def mut_post_due_handler(cfn):
    cfn["Resources"]["PostDueFunction"]["Properties"]["Handler"] = "bootstrap"


def mut_post_due_auth_env(cfn):
    cfn["Resources"]["PostDueFunction"]["Properties"]["Environment"]["Variables"]["DOCHIYA_SIGNING_KEY_ID"] = "k"


MUTATIONS = [
    ("x86_64 architecture", mut_x86, check_function),
    ("provided.al2 runtime", mut_runtime, check_function),
    ("metadata route missing", mut_drop_route, check_routes),
    ("invoke permission for any API", mut_any_api_may_invoke, check_routes),
    ("named stage", mut_named_stage, check_stage),
    ("PITR off", mut_pitr_off, check_table),
    ("deletion protection off", mut_unprotected, check_table),
    ("TTL on another attribute", mut_ttl_name, check_table),
    ("table DeletionPolicy Delete", mut_delete_policy, check_table),
    ("dynamodb:* action", mut_wildcard, check_iam_no_wildcard_actions),
    ("action the store never calls", mut_extra_action, check_iam_dynamodb_matches_store),
    ("DynamoDB grant on every table", mut_any_table, check_iam_dynamodb_matches_store),
    ("table provisioning action", mut_provisioning, check_iam_dynamodb_matches_store),
    ("misspelt env var", mut_env_typo, check_env),
    ("dev auth in Lambda", mut_dev_auth, check_env),
    ("KMS action the server never calls", mut_kms_extra, check_kms_signing_key),
    ("KMS grant on every key", mut_kms_any_key, check_kms_signing_key),
    ("RSA signing key", mut_kms_rsa, check_kms_signing_key),
    ("self-sign-up always on", mut_self_sign_up, check_sign_in),
    ("Cognito client with a secret", mut_client_secret, check_sign_in),
    ("implicit flow at Cognito", mut_implicit_flow, check_sign_in),
    ("authorization server route missing", mut_drop_as_route, check_routes),
    ("log group without retention", mut_no_retention, check_logs),
    ("MCP URL output with trailing slash", mut_output_url, check_outputs),
    ("schedule invoking the MCP function", mut_schedule_targets_mcp, check_post_due_schedule),
    ("schedule input without its time", mut_schedule_without_time, check_post_due_schedule),
    ("daily schedule", mut_daily_schedule, check_post_due_schedule),
    ("scheduler role may invoke any function", mut_scheduler_invokes_anything, check_post_due_schedule),
    ("post-due items in every partition", mut_post_due_any_partition, check_post_due_iam),
    ("post-due items in person partitions", mut_post_due_person_partitions, check_post_due_iam),
    ("post-due action posting never needs", mut_post_due_extra_action, check_post_due_iam),
    ("post-due role with a KMS grant", mut_post_due_kms, check_post_due_iam),
    ("post-due function with the MCP handler", mut_post_due_handler, check_post_due_function),
    ("post-due function with sign-in settings", mut_post_due_auth_env, check_post_due_function),
]


def main(sam_path, cfn_path, root):
    root = Path(root).resolve()
    sam = yaml_parse(Path(sam_path).read_text(encoding="utf-8"))
    cfn = json.loads(Path(cfn_path).read_text(encoding="utf-8"))
    passed = failed = 0

    for title, check in CHECKS:
        problems = check(sam, cfn, root)
        if problems:
            failed += 1
            print(f"FAIL {title}")
            for p in problems:
                print(f"     - {p}")
        else:
            passed += 1
            print(f"PASS {title}")

    for title, mutate, check in MUTATIONS:
        broken = copy.deepcopy(cfn)
        mutate(broken)
        problems = check(sam, broken, root)
        if problems:
            passed += 1
            print(f"PASS catches {title}: {problems[0]}")
        else:
            failed += 1
            print(f"FAIL does not catch {title}")

    for note in sorted(NOTES):
        print(f"note: {note}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
