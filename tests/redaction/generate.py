#!/usr/bin/env python3
"""Generate the redaction corpus: positives.jsonl and negatives.jsonl next to this file.

    python3 tests/redaction/generate.py           # rewrite the data files
    python3 tests/redaction/generate.py --check   # exit 1 if they differ from a fresh run

Standard library only. Every value comes from random.Random seeded with SEED and the
family's name, so the output is the same byte for byte on every run, and adding or
changing one family leaves the others' cases as they were. Every secret is random and
fake, but shaped like the real format (prefix, alphabet, length, and the checksum where
the format has one); no secret here was ever issued by anyone. README.md names the
public format documentation each family follows.
"""

import base64
import json
import os
import random
import string
import sys
import urllib.parse
import zlib

SEED = "codemode-errors redaction corpus v1"
HERE = os.path.dirname(os.path.abspath(__file__))

DIGITS = string.digits
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
ALNUM = DIGITS + UPPER + LOWER  # base62, in the order GitHub's checksum encoding uses
HEX = "0123456789abcdef"
B64 = UPPER + LOWER + DIGITS + "+/"
B64URL = UPPER + LOWER + DIGITS + "-_"
BASE32 = UPPER + "234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
PASSWORD_CHARS = ALNUM + "!^*-_.~+"


class Gen:
    """The random source of one family."""

    def __init__(self, name):
        self.r = random.Random(SEED + "/" + name)

    def s(self, alphabet, n):
        return "".join(self.r.choice(alphabet) for _ in range(n))

    def pick(self, items):
        return items[self.r.randrange(len(items))]

    def int(self, lo, hi):
        return self.r.randint(lo, hi)

    def raw(self, n):
        return bytes(self.r.getrandbits(8) for _ in range(n))

    def uuid(self):
        h = self.s(HEX, 32)
        h = h[:12] + "4" + h[13:16] + self.pick("89ab") + h[17:]
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def password(self, n=16, alphabet=PASSWORD_CHARS):
        # Always at least one letter and one digit, as real generated passwords have.
        return self.s(LOWER, 1) + self.s(alphabet, n - 3) + self.s(DIGITS, 1) + self.s(UPPER, 1)

    def timestamp(self):
        return f"2024-{self.int(1, 12):02d}-{self.int(1, 28):02d}T{self.int(0, 23):02d}:{self.int(0, 59):02d}:{self.int(0, 59):02d}.{self.int(0, 999):03d}Z"

    def b64(self, n_bytes, urlsafe=False, pad=True):
        raw = self.raw(n_bytes)
        out = base64.urlsafe_b64encode(raw) if urlsafe else base64.b64encode(raw)
        out = out.decode()
        return out if pad else out.rstrip("=")


# --- checksums and encodings the formats use -------------------------------------------


def base62(n, width):
    out = ""
    while n:
        n, d = divmod(n, 62)
        out = ALNUM[d] + out
    return out.rjust(width, "0")


def github_style(g, prefix):
    """GitHub's token format (also npm's): prefix, 30 random base62 characters, then the
    CRC32 of those 30 characters in base62, padded to 6."""
    body = g.s(ALNUM, 30)
    return prefix + body + base62(zlib.crc32(body.encode()), 6)


def crc24(data):
    """The OpenPGP armor checksum (RFC 4880, 6.1)."""
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def b64u(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def lines(text, width):
    return [text[i : i + width] for i in range(0, len(text), width)]


def long_lines(body_lines):
    """The lines of an armored body worth checking (short last lines and padding only)."""
    return [line for line in body_lines if len(line) >= 16]


# --- the secrets ------------------------------------------------------------------------


def aws_key_id(g, prefix="AKIA"):
    return prefix + g.s(BASE32, 16)


def aws_secret(g):
    return g.s(ALNUM + "+/", 40)


def aws_session_token(g):
    return "IQoJb3JpZ2luX2Vj" + g.s(B64, 372)


def gcp_api_key(g):
    return "AIzaSy" + g.s(B64URL, 33)


def google_access_token(g):
    return "ya29.a0" + g.s(B64URL, 150)


def google_refresh_token(g):
    return "1//0" + g.s(B64URL, 2) + g.s(B64URL, 96)


def google_client_secret(g):
    return "GOCSPX-" + g.s(B64URL, 28)


def azure_account_key(g):
    return g.b64(64)


def azure_shared_access_key(g):
    return g.b64(32)


def azure_ad_secret(g):
    return g.s(ALNUM + "_~.", 3) + g.pick(DIGITS) + "Q~" + g.s(ALNUM + "_~.-", 34)


def slack_bot(g):
    return f"xoxb-{g.s(DIGITS, 11)}-{g.s(DIGITS, 13)}-{g.s(ALNUM, 24)}"


def slack_user(g):
    return f"xoxp-{g.s(DIGITS, 11)}-{g.s(DIGITS, 11)}-{g.s(DIGITS, 13)}-{g.s(HEX, 32)}"


def slack_app(g):
    return f"xapp-1-A{g.s(UPPER + DIGITS, 10)}-{g.s(DIGITS, 13)}-{g.s(HEX, 64)}"


def slack_config(g):
    return f"xoxe.xoxp-1-{g.s(UPPER + DIGITS, 164)}"


def slack_webhook(g):
    key = g.s(ALNUM, 24)
    return f"https://hooks.slack.com/services/T{g.s(UPPER + DIGITS, 8)}/B{g.s(UPPER + DIGITS, 10)}/{key}", key


def discord_bot(g):
    user_id = str(g.int(10**17, 10**18 - 1))
    return b64u(user_id.encode()) + "." + g.s(B64URL, 6) + "." + g.s(B64URL, 38)


def discord_webhook(g):
    token = g.s(B64URL, 68)
    return f"https://discord.com/api/webhooks/{g.int(10**17, 10**19 - 1)}/{token}", token


def telegram_bot(g):
    bot_id = str(g.int(10**8, 10**10 - 1))
    secret = "AA" + g.s(B64URL, 33)
    return bot_id + ":" + secret, secret


def teams_webhook(g):
    key = g.s(HEX, 32)
    url = f"https://contoso.webhook.office.com/webhookb2/{g.uuid()}@{g.uuid()}/IncomingWebhook/{key}/{g.uuid()}"
    return url, key


def stripe(g, prefix):
    if g.int(0, 1):
        return prefix + "51" + g.s(ALNUM, 97)
    return prefix + g.s(ALNUM, 24)


def openai_key(g, kind=None):
    kind = kind or g.pick(["proj", "svcacct", "admin", "legacy"])
    if kind == "legacy":
        return "sk-" + g.s(ALNUM, 20) + "T3BlbkFJ" + g.s(ALNUM, 20)
    return f"sk-{kind}-" + g.s(B64URL, 74) + "T3BlbkFJ" + g.s(B64URL, 74)


def anthropic_key(g, kind="api03"):
    return f"sk-ant-{kind}-" + g.s(B64URL, 93) + "AA"


def jwt(g, alg="HS256", claims=None, sig=True):
    header = {"alg": alg, "typ": "JWT"}
    if claims is None:
        claims = {"sub": str(g.int(10**5, 10**9)), "iss": "https://auth.example.com/", "iat": 1716000000 + g.int(0, 10**6)}
        claims["exp"] = claims["iat"] + 3600
        claims["scope"] = g.pick(["repo read:org", "openid profile email", "admin"])
    h = b64u(json.dumps(header, separators=(",", ":")).encode())
    p = b64u(json.dumps(claims, separators=(",", ":")).encode())
    n = {"HS256": 32, "RS256": 256, "ES256": 64, "EdDSA": 64}.get(alg, 32)
    s = b64u(g.raw(n)) if sig else ""
    return f"{h}.{p}.{s}"


# Private keys. The DER prefixes are the real ASN.1 headers of each structure; the rest
# is random bytes of the right size, so the armor looks and decodes like a real key's.
DER_PKCS8_RSA = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100")
DER_PKCS1_RSA = bytes.fromhex("308204a40201000282010100")
DER_EC = bytes.fromhex("30770201010420")
DER_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")
DER_ENCRYPTED = bytes.fromhex("30820524305606092a864886f70d01050d3049")
DER_DSA = bytes.fromhex("308201bb02010002818100")


def pem(g, label, der_prefix, size):
    body = base64.b64encode(der_prefix + g.raw(size - len(der_prefix))).decode()
    body_lines = lines(body, 64)
    return f"-----BEGIN {label}-----", body_lines, f"-----END {label}-----"


def openssh_key(g):
    raw = b"openssh-key-v1\x00" + b"\x00\x00\x00\x04none" * 2 + b"\x00\x00\x00\x00\x00\x00\x00\x01" + g.raw(380)
    body_lines = lines(base64.b64encode(raw).decode(), 70)
    return "-----BEGIN OPENSSH PRIVATE KEY-----", body_lines, "-----END OPENSSH PRIVATE KEY-----"


def pgp_key(g):
    raw = b"\x95\x03\x98\x04" + g.raw(900)
    body_lines = lines(base64.b64encode(raw).decode(), 64)
    checksum = "=" + base64.b64encode(crc24(raw).to_bytes(3, "big")).decode()
    return "-----BEGIN PGP PRIVATE KEY BLOCK-----", body_lines, checksum, "-----END PGP PRIVATE KEY BLOCK-----"


def ssh2_key(g):
    raw = bytes.fromhex("3f6ff9eb") + g.raw(640)
    body_lines = lines(base64.b64encode(raw).decode(), 70)
    return "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----", body_lines, "---- END SSH2 ENCRYPTED PRIVATE KEY ----"


def putty_key(g, version=3):
    pub = base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + g.raw(32)).decode()
    priv = base64.b64encode(b"\x00\x00\x00\x20" + g.raw(32)).decode()
    mac = g.s(HEX, 64)
    head = [f"PuTTY-User-Key-File-{version}: ssh-ed25519", "Encryption: none", "Comment: eddsa-key-20240517", "Public-Lines: 2"]
    head += lines(pub, 64)
    text = "\n".join(head + ["Private-Lines: 1", priv, f"Private-MAC: {mac}"])
    return text, [priv, mac]


# --- the cases --------------------------------------------------------------------------


def T(placement, text, secrets, note=None):
    case = {"placement": placement, "mode": "text", "text": text, "secrets": secrets}
    if note:
        case["note"] = note
    return case


def R(placement, blocks, secrets, structured=None, note=None):
    """A case fed as an MCP CallToolResult: text blocks and optional structuredContent."""
    case = {"placement": placement, "mode": "report", "blocks": blocks}
    if structured is not None:
        case["structured"] = structured
    case["secrets"] = secrets
    if note:
        case["note"] = note
    return case


def prose(g, s, what):
    return g.pick(
        [
            f"The request was rejected because the {what} {s} has been revoked.",
            f"I found a {what} in the build output: {s}. It should be rotated.",
            f"Retry the call with {s} as the {what}.",
            f"Note: the {what} {s} expires in three days.",
            f"Your {what} is {s}; keep it safe.",
        ]
    )


def log_line(g, s, what):
    ts = g.timestamp()
    return g.pick(
        [
            f"{ts} ERROR http.client: upstream answered 401 for {what} {s}",
            f"{ts} DEBUG configured client with {s} (from environment)",
            f"[{ts}] WARN auth: retry 2/5 using {s}",
            f"{ts} INFO worker-3 loaded {what} {s} for tenant acme",
        ]
    )


def split_point(s):
    return max(8, min(len(s) - 8, len(s) // 2))


def token_cases(g, make, what, env_names, yaml_key="credential", extra=(), split=True, structured=True):
    """The placements every provider token is planted in. `make()` returns the token."""
    cases = []
    s = make()
    cases.append(T("prose", prose(g, s, what), [s]))
    s = make()
    cases.append(T("log_line", log_line(g, s, what), [s]))
    s = make()
    cases.append(T("json_text", json.dumps({"id": g.int(1000, 9999), "provider": what, "value": s, "active": True}), [s]))
    s = make()
    inner = json.dumps({"settings": {"provider": what, "credential": s}})
    cases.append(T("json_escaped", json.dumps({"status": 400, "body": inner}), [s], "a JSON document quoted inside JSON"))
    s = make()
    name = g.pick(env_names)
    cases.append(T("env_assignment", f"{name}={s}", [s]))
    s = make()
    cases.append(T("yaml_value", f"integrations:\n  {what.replace(' ', '_')}:\n    enabled: true\n    {yaml_key}: {s}\n", [s]))
    s = make()
    cases.append(T("code", g.pick([f'client = Client("{s}")', f"const client = new Client('{s}');", f'c := client.New("{s}")']), [s]))
    s = make()
    cases.append(T("markdown", f"Set the secret to `{s}` in the dashboard, then rerun the job.", [s]))
    if split:
        s = make()
        k = split_point(s)
        cases.append(R("split_blocks", [f"fetching with {what} {s[:k]}", f"{s[k:]} failed: 401 Unauthorized"], [s], note="the token is cut across two text blocks"))
    if structured:
        s = make()
        cases.append(
            R(
                "structured",
                ["upstream rejected the request"],
                [s],
                structured={"error": {"kind": "auth_failed", "message": "credential rejected"}, "request": {"id": g.uuid(), "config": {"value": s}}},
            )
        )
    for e in extra:
        cases.append(e)
    return cases


FAMILIES = []

# Cases added to a family after its first ones, drawn from a random source of their own
# (`Gen(name + "/more")`), so the family's earlier cases stay as they were.
MORE = {}


def more(name):
    def register(fn):
        MORE[name] = fn
        return fn

    return register


def family(name, source):
    def register(fn):
        FAMILIES.append((name, source, fn))
        return fn

    return register


# --- cloud ------------------------------------------------------------------------------


@family("aws_access_key_id", "AWS IAM: managing access keys; AWS STS temporary credentials")
def _(g):
    a, b, c = aws_key_id(g), aws_key_id(g, "ASIA"), aws_key_id(g)
    extra = [
        T("ini", f"[default]\naws_access_key_id = {a}\nregion = us-east-1\n", [a]),
        T("prose", f"temporary credentials issued: {b} (expires 2024-05-17T12:00:00Z)", [b], "a session key id (ASIA)"),
        T("url_query", f"https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={c}%2F20240517%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20240517T000000Z", [c]),
    ]
    return token_cases(g, lambda: aws_key_id(g, g.pick(["AKIA", "ASIA"])), "access key", ["AWS_ACCESS_KEY_ID", "AWS_KEY", "S3_KEY_ID"], "access_key_id", extra)


@family("aws_secret_access_key", "AWS IAM: managing access keys; the shared credentials file; STS GetSessionToken")
def _(g):
    cases = []
    kid, s = aws_key_id(g), aws_secret(g)
    cases.append(T("ini", f"[default]\naws_access_key_id = {kid}\naws_secret_access_key = {s}\n", [s], "~/.aws/credentials"))
    s = aws_secret(g)
    cases.append(T("env_assignment", f"export AWS_SECRET_ACCESS_KEY={s}", [s]))
    s = aws_secret(g)
    sts = {"Credentials": {"AccessKeyId": aws_key_id(g, "ASIA"), "SecretAccessKey": s, "Expiration": "2024-05-17T12:00:00Z"}}
    cases.append(T("json_text", json.dumps(sts, indent=4), [s], "aws sts get-session-token output"))
    s = aws_secret(g)
    cases.append(T("csv", f"User name,Password,Access key ID,Secret access key,Console login link\nci-bot,,{aws_key_id(g)},{s},https://123456789012.signin.aws.amazon.com/console", [s], "the IAM credentials CSV download"))
    s = aws_secret(g)
    cases.append(T("code", f's3 = boto3.client("s3", aws_access_key_id="{aws_key_id(g)}", aws_secret_access_key="{s}")', [s]))
    s = aws_secret(g)
    cases.append(T("yaml_value", f"aws:\n  accessKeyId: {aws_key_id(g)}\n  secretAccessKey: {s}\n", [s]))
    s = aws_secret(g)
    cases.append(T("cli_argument", f"aws configure set aws_secret_access_key {s} --profile ci", [s], "the key name and value separated by a space"))
    s = aws_secret(g)
    cases.append(T("prose", f"Access key {aws_key_id(g)} with secret {s} was found in the repository.", [s]))
    s = aws_secret(g)
    cases.append(T("toml", f'[aws]\naccess_key = "{aws_key_id(g)}"\nsecret_key = "{s}"\n', [s]))
    s = aws_secret(g)
    cases.append(T("json_escaped", json.dumps({"log": json.dumps({"aws_secret_access_key": s})}), [s]))
    s = aws_secret(g)
    cases.append(R("structured", ["assume role failed"], [s], structured={"credentials": {"AccessKeyId": aws_key_id(g, "ASIA"), "SecretAccessKey": s}}))
    s = aws_secret(g)
    cases.append(T("properties", f"cloud.aws.credentials.access-key={aws_key_id(g)}\ncloud.aws.credentials.secret-key={s}\n", [s]))
    return cases


@family("aws_session_token", "AWS STS temporary security credentials; AWS Signature Version 4 query parameters")
def _(g):
    cases = []
    s = aws_session_token(g)
    cases.append(T("env_assignment", f"AWS_SESSION_TOKEN={s}", [s]))
    s = aws_session_token(g)
    cases.append(T("json_text", json.dumps({"Credentials": {"SessionToken": s, "Expiration": "2024-05-17T12:00:00Z"}}), [s]))
    s = aws_session_token(g)
    cases.append(T("ini", f"[ci]\naws_session_token = {s}\n", [s]))
    s = aws_session_token(g)
    enc = urllib.parse.quote(s, safe="")
    cases.append(T("url_query", f"https://examplebucket.s3.amazonaws.com/a.txt?X-Amz-Date=20240517T000000Z&X-Amz-Security-Token={enc}&X-Amz-SignedHeaders=host", [enc]))
    s = aws_session_token(g)
    cases.append(T("header", f"X-Amz-Security-Token: {s}", [s]))
    s = aws_session_token(g)
    cases.append(T("prose", f"The role session token is {s}", [s]))
    s = aws_session_token(g)
    cases.append(T("log_line", log_line(g, s, "session"), [s]))
    return cases


@family("gcp_service_account_key", "Google Cloud IAM: creating service account keys (the JSON key file)")
def _(g):
    cases = []

    def key_file():
        begin, body, end = pem(g, "PRIVATE KEY", DER_PKCS8_RSA, 1217)
        private_key = begin + "\n" + "\n".join(body) + "\n" + end + "\n"
        doc = {
            "type": "service_account",
            "project_id": "acme-prod-" + g.s(DIGITS, 6),
            "private_key_id": g.s(HEX, 40),
            "private_key": private_key,
            "client_email": "deployer@acme-prod.iam.gserviceaccount.com",
            "client_id": g.s(DIGITS, 21),
            "token_uri": "https://oauth2.googleapis.com/token",
        }
        return doc, long_lines(body)

    doc, sec = key_file()
    cases.append(T("json_text", json.dumps(doc, indent=2), sec, "the key file as printed"))
    doc, sec = key_file()
    cases.append(T("json_text", json.dumps(doc), sec, "one line"))
    doc, sec = key_file()
    blob = base64.b64encode(json.dumps(doc).encode()).decode()
    cases.append(T("env_assignment", f"GOOGLE_CREDENTIALS_B64={blob}", [blob], "the key file base64-encoded, as CI systems store it"))
    doc, sec = key_file()
    cases.append(T("json_escaped", json.dumps({"secret": json.dumps(doc)}), sec))
    doc, sec = key_file()
    cases.append(R("structured", ["could not load credentials"], sec, structured={"credentials": doc}))
    doc, sec = key_file()
    body = doc["private_key"]
    cases.append(T("yaml_value", "gcp:\n  private_key: |\n" + "".join("    " + line + "\n" for line in body.splitlines()), sec, "PEM in a YAML block scalar"))
    return cases


@family("gcp_api_key", "Google Cloud: API keys (AIza prefix)")
def _(g):
    k1, k2 = gcp_api_key(g), gcp_api_key(g)
    extra = [
        T("url_query", f"https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={k1}", [k1]),
        T("header", f"X-Goog-Api-Key: {k2}", [k2]),
    ]
    return token_cases(g, lambda: gcp_api_key(g), "API key", ["GOOGLE_API_KEY", "GEMINI_API_KEY", "MAPS_KEY"], "apiKey", extra)


@family("google_oauth_token", "Google Identity: OAuth 2.0 access and refresh tokens")
def _(g):
    a, r = google_access_token(g), google_refresh_token(g)
    token_response = json.dumps({"access_token": a, "expires_in": 3599, "refresh_token": r, "scope": "https://www.googleapis.com/auth/drive", "token_type": "Bearer"})
    r2 = google_refresh_token(g)
    extra = [
        T("json_text", token_response, [a, r], "the token endpoint's response"),
        T("prose", f"refresh token for the connector: {r2}", [r2], "refresh tokens start 1//"),
    ]
    return token_cases(g, lambda: google_access_token(g), "access token", ["GOOGLE_ACCESS_TOKEN", "GCLOUD_OAUTH"], "oauth", extra)


@family("google_oauth_client_secret", "Google Identity: OAuth client secrets (GOCSPX- prefix)")
def _(g):
    s = google_client_secret(g)
    client = {"installed": {"client_id": f"{g.s(DIGITS, 12)}-{g.s(LOWER + DIGITS, 32)}.apps.googleusercontent.com", "client_secret": s, "redirect_uris": ["http://localhost"]}}
    extra = [T("json_text", json.dumps(client), [s], "client_secret.json")]
    return token_cases(g, lambda: google_client_secret(g), "client secret", ["GOOGLE_CLIENT_SECRET", "OAUTH_CLIENT"], "client", extra, split=False)


@family("azure_connection_string", "Azure Storage: configure a connection string; Azure Service Bus and Event Hubs: SAS connection strings")
def _(g):
    cases = []
    for placement in ["prose", "env_assignment", "json_text", "xml_attribute", "log_line", "structured"]:
        key = azure_account_key(g)
        cs = f"DefaultEndpointsProtocol=https;AccountName=acmeprod{g.s(DIGITS, 3)};AccountKey={key};EndpointSuffix=core.windows.net"
        if placement == "prose":
            cases.append(T(placement, f"Storage connection: {cs}", [key]))
        elif placement == "env_assignment":
            cases.append(T(placement, f'AZURE_STORAGE_CONNECTION_STRING="{cs}"', [key]))
        elif placement == "json_text":
            cases.append(T(placement, json.dumps({"Values": {"AzureWebJobsStorage": cs, "FUNCTIONS_WORKER_RUNTIME": "node"}}), [key], "local.settings.json"))
        elif placement == "xml_attribute":
            cases.append(T(placement, f'<connectionStrings>\n  <add name="Storage" connectionString="{cs}" />\n</connectionStrings>', [key]))
        elif placement == "log_line":
            cases.append(T(placement, f"{g.timestamp()} ERROR BlobServiceClient: AuthenticationFailed for {cs}", [key]))
        else:
            cases.append(R(placement, ["storage request failed"], [key], structured={"connection": cs}))
    for placement in ["prose", "env_assignment", "json_text"]:
        key = azure_shared_access_key(g)
        cs = f"Endpoint=sb://acme-{g.s(LOWER, 5)}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={key}"
        if placement == "prose":
            cases.append(T(placement, f"Service Bus: {cs}", [key]))
        elif placement == "env_assignment":
            cases.append(T(placement, f"SERVICEBUS_CONNECTION={cs}", [key]))
        else:
            cases.append(T(placement, json.dumps({"eventHub": {"connectionString": cs + ";EntityPath=events"}}), [key]))
    key = azure_shared_access_key(g)
    cases.append(T("prose", f"HostName=acme-hub.azure-devices.net;SharedAccessKeyName=iothubowner;SharedAccessKey={key}", [key], "IoT Hub"))
    return cases


@family("azure_storage_account_key", "Azure Storage: manage account access keys")
def _(g):
    cases = []
    k1, k2 = azure_account_key(g), azure_account_key(g)
    out = [{"creationTime": "2024-05-17T10:00:00Z", "keyName": "key1", "permissions": "FULL", "value": k1}, {"creationTime": "2024-05-17T10:00:00Z", "keyName": "key2", "permissions": "FULL", "value": k2}]
    cases.append(T("json_text", json.dumps(out, indent=2), [k1, k2], "az storage account keys list: name/value pairs"))
    k = azure_account_key(g)
    cases.append(T("env_assignment", f"AZURE_STORAGE_KEY={k}", [k]))
    k = azure_account_key(g)
    cases.append(T("cli_argument", f"az storage blob upload --account-name acme --account-key {k} -f a.txt -c c", [k]))
    k = azure_account_key(g)
    cases.append(T("prose", f"The primary key of the storage account is {k}", [k]))
    k = azure_account_key(g)
    cases.append(T("yaml_value", f"storage:\n  account: acme\n  accountKey: {k}\n", [k]))
    k = azure_account_key(g)
    cases.append(R("structured", ["listKeys failed"], [k], structured={"keys": [{"keyName": "key1", "value": k}]}))
    return cases


@family("azure_sas", "Azure Storage: create a service SAS (the sv/sp/se/sig query parameters)")
def _(g):
    cases = []

    def sas():
        sig = urllib.parse.quote(azure_shared_access_key(g), safe="")
        return f"sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2024-06-01T00:00:00Z&st=2024-05-17T00:00:00Z&spr=https&sig={sig}", sig

    q, sig = sas()
    cases.append(T("url_query", f"PUT https://acme.blob.core.windows.net/backups/db.bak?{q} -> 403", [sig]))
    q, sig = sas()
    cases.append(T("env_assignment", f"AZURE_STORAGE_SAS_TOKEN=?{q}", [sig]))
    q, sig = sas()
    cases.append(T("json_text", json.dumps({"uploadUrl": f"https://acme.blob.core.windows.net/in/x.csv?{q}"}), [sig]))
    q, sig = sas()
    cases.append(T("prose", f"Use this SAS: {q}", [sig], "a SAS token without its URL"))
    q, sig = sas()
    cases.append(T("log_line", f"{g.timestamp()} WARN azcopy: transfer failed https://acme.blob.core.windows.net/c/f?{q}", [sig]))
    q, sig = sas()
    cases.append(R("structured", ["copy failed"], [sig], structured={"source": f"https://acme.blob.core.windows.net/c/f?{q}"}))
    q, sig = sas()
    cases.append(T("json_escaped", json.dumps({"body": json.dumps({"url": f"https://acme.queue.core.windows.net/q?{q}"})}), [sig]))
    return cases


@family("azure_ad_client_secret", "Microsoft Entra ID: application client secrets")
def _(g):
    return token_cases(g, lambda: azure_ad_secret(g), "client secret", ["AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET", "AAD_APP"], "clientSecret", split=False)


# --- version control --------------------------------------------------------------------


@family("github_token", "GitHub: behind GitHub's new authentication token formats (classic ghp_ tokens and their CRC32 checksum)")
def _(g):
    a, b, c, d = (github_style(g, "ghp_") for _ in range(4))
    extra = [
        T("url_userinfo", f"git clone https://{a}@github.com/acme/private.git", [a], "token as the user name"),
        T("header", f"Authorization: token {b}", [b]),
        T("cli_argument", f"gh auth login --with-token <<< {c}", [c]),
        T("netrc", f"machine api.github.com login bot password {d}", [d]),
    ]
    return token_cases(g, lambda: github_style(g, "ghp_"), "personal access token", ["GITHUB_TOKEN", "GH_PAT", "GH_ENTERPRISE"], "token", extra)


@family("github_fine_grained_pat", "GitHub: fine-grained personal access tokens (github_pat_ prefix)")
def _(g):
    def make():
        return "github_pat_11" + g.s(UPPER + DIGITS, 20) + "_" + g.s(ALNUM, 59)

    a = make()
    extra = [T("url_userinfo", f"https://oauth2:{a}@github.com/acme/app.git", [a])]
    return token_cases(g, make, "fine-grained token", ["GITHUB_PAT", "GH_FINE_GRAINED"], "pat", extra)


@family("github_app_token", "GitHub: authentication token formats (ghs_ installation, ghu_ user-to-server, ghr_ refresh)")
def _(g):
    a = github_style(g, "ghs_")
    extra = [T("url_userinfo", f"https://x-access-token:{a}@github.com/acme/app.git", [a], "the form GitHub Apps document")]
    return token_cases(g, lambda: github_style(g, g.pick(["ghs_", "ghu_", "ghr_"])), "installation token", ["GITHUB_APP_TOKEN", "INSTALLATION"], "token", extra, split=False)


@family("github_oauth_token", "GitHub: authentication token formats (gho_ OAuth access tokens)")
def _(g):
    a = github_style(g, "gho_")
    extra = [T("json_text", json.dumps({"access_token": a, "token_type": "bearer", "scope": "repo,gist"}), [a], "the OAuth token response")]
    return token_cases(g, lambda: github_style(g, "gho_"), "OAuth token", ["GH_OAUTH", "GITHUB_OAUTH_TOKEN"], "oauth", extra, split=False, structured=False)


@family("gitlab_token", "GitLab: token overview (glpat- personal, project and group access tokens, also routable ones with their .<version>.<checksum> suffix)")
def _(g):
    a, b = "glpat-" + g.s(B64URL, 20), "glpat-" + g.s(B64URL, 20)
    extra = [
        T("header", f"PRIVATE-TOKEN: {a}", [a], "GitLab's own header"),
        T("url_query", f"https://gitlab.example.com/api/v4/projects?private_token={b}", [b]),
    ]
    return token_cases(g, lambda: "glpat-" + g.s(B64URL, 20), "access token", ["GITLAB_TOKEN", "GL_PAT", "CI_PUSH"], "token", extra)


@family("gitlab_runner_token", "GitLab: token overview (glrt- runner authentication tokens, GR1348941 registration tokens)")
def _(g):
    a = "glrt-" + g.s(B64URL, 20)
    extra = [T("toml", f'[[runners]]\n  name = "docker"\n  url = "https://gitlab.example.com"\n  token = "{a}"\n  executor = "docker"\n', [a], "config.toml of gitlab-runner")]
    make = lambda: g.pick(["glrt-", "glrt-t1_", "GR1348941"]) + g.s(B64URL, 20)
    return token_cases(g, make, "runner token", ["RUNNER_TOKEN", "CI_SERVER_REGISTRATION"], "registration", extra, split=False, structured=False)


@family("gitlab_deploy_token", "GitLab: deploy tokens (gldt- prefix)")
def _(g):
    a = "gldt-" + g.s(B64URL, 20)
    extra = [T("url_userinfo", f"https://gitlab+deploy-token-42:{a}@gitlab.example.com/acme/app.git", [a])]
    return token_cases(g, lambda: "gldt-" + g.s(B64URL, 20), "deploy token", ["DEPLOY_TOKEN", "GL_DEPLOY"], "deploy", extra, split=False, structured=False)


@family("gitlab_other_token", "GitLab: token overview (glptt- trigger, glcbt- CI job, glft- feed, gloas- OAuth application secret, glagent- agent for Kubernetes, glsoat- SCIM, glffct- feature flags client)")
def _(g):
    def make():
        kind = g.pick(["glptt-", "glcbt-", "glft-", "gloas-"])
        if kind == "glptt-":
            return kind + g.s(HEX, 40)
        if kind == "glcbt-":
            return kind + g.s(ALNUM, 2) + "_" + g.s(B64URL, 20)
        if kind == "gloas-":
            return kind + g.s(HEX, 64)
        return kind + g.s(B64URL, 20)

    return token_cases(g, make, "trigger token", ["TRIGGER", "GL_FEED"], "trigger", split=False, structured=False)


@family("atlassian_api_token", "Atlassian: manage API tokens (ATATT prefix) and organization API keys (ATCTT prefix)")
def _(g):
    make = lambda: "ATATT3xFfGF0" + g.s(B64URL, 166) + "=" + g.s(HEX.upper(), 8)
    return token_cases(g, make, "API token", ["JIRA_API_TOKEN", "CONFLUENCE"], "apiToken", split=False, structured=False)


# --- chat -------------------------------------------------------------------------------


@family("slack_token", "Slack: token types (xoxb- bot, xoxp- user, xapp- app-level, xoxe. configuration tokens); browser session xoxc- tokens and xoxd- d cookies as secret scanners describe them")
def _(g):
    a, b = slack_app(g), slack_config(g)
    extra = [
        T("env_assignment", f"SLACK_APP_TOKEN={a}", [a], "app-level token"),
        T("prose", f"configuration token {b}", [b], "xoxe. configuration token"),
    ]
    return token_cases(g, lambda: g.pick([slack_bot, slack_user])(g), "bot token", ["SLACK_BOT_TOKEN", "SLACK", "SLACK_USER"], "botToken", extra)


@family("slack_webhook", "Slack: sending messages using incoming webhooks")
def _(g):
    cases = []
    url, key = slack_webhook(g)
    cases.append(T("prose", f"Post alerts to {url}", [key]))
    url, key = slack_webhook(g)
    cases.append(T("env_assignment", f"SLACK_WEBHOOK_URL={url}", [key]))
    url, key = slack_webhook(g)
    cases.append(T("json_text", json.dumps({"notify": {"slack": url}}), [key]))
    url, key = slack_webhook(g)
    cases.append(T("cli_argument", f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"done\"}}' {url}", [key]))
    url, key = slack_webhook(g)
    cases.append(T("log_line", f"{g.timestamp()} ERROR notifier: POST {url} returned 404 no_service", [key]))
    url, key = slack_webhook(g)
    cases.append(T("yaml_value", f"alertmanager:\n  receivers:\n    - name: ops\n      slack_configs:\n        - api_url: {url}\n", [key]))
    url, key = slack_webhook(g)
    cases.append(R("structured", ["webhook failed"], [key], structured={"target": url}))
    url, key = slack_webhook(g)
    cases.append(T("json_escaped", json.dumps({"cfg": json.dumps({"webhook": url})}).replace("/", "\\/"), [key], "JSON with escaped slashes (https:\\/\\/)"))
    return cases


@family("discord_bot_token", "Discord developer docs: bot authorization (Authorization: Bot <token>)")
def _(g):
    a = discord_bot(g)
    extra = [T("header", f"Authorization: Bot {a}", [a], "the Bot scheme")]
    return token_cases(g, lambda: discord_bot(g), "bot token", ["DISCORD_TOKEN", "DISCORD_BOT"], "token", extra)


@family("discord_webhook", "Discord developer docs: webhook resource (execute webhook URL)")
def _(g):
    cases = []
    for placement in ["prose", "env_assignment", "json_text", "log_line", "yaml_value", "structured"]:
        url, key = discord_webhook(g)
        if placement == "prose":
            cases.append(T(placement, f"Send the report to {url}", [key]))
        elif placement == "env_assignment":
            cases.append(T(placement, f"DISCORD_WEBHOOK={url}", [key]))
        elif placement == "json_text":
            cases.append(T(placement, json.dumps({"hooks": [{"name": "ci", "url": url}]}), [key]))
        elif placement == "log_line":
            cases.append(T(placement, f"{g.timestamp()} WARN POST {url} -> 429", [key]))
        elif placement == "yaml_value":
            cases.append(T(placement, f"notifications:\n  discord: {url}\n", [key]))
        else:
            cases.append(R(placement, ["delivery failed"], [key], structured={"webhook": url}))
    url, key = discord_webhook(g)
    cases.append(T("url", url.replace("discord.com", "discordapp.com"), [key], "the older discordapp.com host"))
    return cases


@family("telegram_bot_token", "Telegram Bot API: authorizing your bot (<id>:<secret>, https://api.telegram.org/bot<token>/)")
def _(g):
    cases = []
    tok, sec = telegram_bot(g)
    cases.append(T("url_path", f"GET https://api.telegram.org/bot{tok}/getMe -> 401 Unauthorized", [sec], "glued to /bot in the path"))
    tok, sec = telegram_bot(g)
    cases.append(T("prose", f"The bot token is {tok}.", [sec]))
    tok, sec = telegram_bot(g)
    cases.append(T("env_assignment", f"TELEGRAM_BOT_TOKEN={tok}", [sec]))
    tok, sec = telegram_bot(g)
    cases.append(T("json_text", json.dumps({"telegram": {"bot": tok, "chat_id": -100123456789}}), [sec]))
    tok, sec = telegram_bot(g)
    cases.append(T("log_line", f"{g.timestamp()} ERROR telegram: sendMessage failed url=https://api.telegram.org/bot{tok}/sendMessage", [sec]))
    tok, sec = telegram_bot(g)
    cases.append(T("code", f'bot = telebot.TeleBot("{tok}")', [sec]))
    tok, sec = telegram_bot(g)
    cases.append(T("yaml_value", f"telegram:\n  bot_token: {tok}\n", [sec]))
    tok, sec = telegram_bot(g)
    cases.append(R("structured", ["telegram error"], [sec], structured={"request": {"url": f"https://api.telegram.org/bot{tok}/getUpdates"}}))
    return cases


@family("teams_webhook", "Microsoft Teams: create incoming webhooks")
def _(g):
    cases = []
    for placement in ["prose", "env_assignment", "json_text", "log_line"]:
        url, key = teams_webhook(g)
        text = {
            "prose": f"Teams channel hook: {url}",
            "env_assignment": f"TEAMS_WEBHOOK={url}",
            "json_text": json.dumps({"teams": {"url": url}}),
            "log_line": f"{g.timestamp()} ERROR POST {url} -> 400",
        }[placement]
        cases.append(T(placement, text, [key]))
    return cases


# --- payments ---------------------------------------------------------------------------


@family("stripe_secret", "Stripe API keys docs (sk_live_ / sk_test_ secret keys)")
def _(g):
    a, b = stripe(g, "sk_live_"), stripe(g, "sk_test_")
    extra = [
        T("cli_argument", f"curl https://api.stripe.com/v1/charges -u {a}:", [a], "curl -u key: as Stripe's docs show"),
        T("header", f"Authorization: Bearer {b}", [b]),
    ]
    return token_cases(g, lambda: stripe(g, "sk_live_"), "secret key", ["STRIPE_SECRET_KEY", "STRIPE_SK", "STRIPE"], "secretKey", extra)


@family("stripe_restricted", "Stripe API keys docs (rk_live_ restricted keys)")
def _(g):
    return token_cases(g, lambda: stripe(g, g.pick(["rk_live_", "rk_test_"])), "restricted key", ["STRIPE_RESTRICTED_KEY", "STRIPE_RK"], "restrictedKey", split=False, structured=False)


@family("stripe_webhook_secret", "Stripe: check webhook signatures (whsec_ signing secrets)")
def _(g):
    return token_cases(g, lambda: "whsec_" + g.s(ALNUM, 32), "signing secret", ["STRIPE_WEBHOOK_SECRET", "WHSEC"], "endpointSecret", split=False, structured=False)


@family("square_token", "Square developer docs: access tokens (EAAA production tokens, sq0csp- application secrets)")
def _(g):
    make = lambda: g.pick(["EAAA" + g.s(B64URL, 60), "sq0csp-" + g.s(B64URL, 43), "sq0atp-" + g.s(B64URL, 22)])
    return token_cases(g, make, "access token", ["SQUARE_ACCESS_TOKEN", "SQUARE"], "accessToken", split=False, structured=False)


# --- AI providers -----------------------------------------------------------------------


@family("openai_key", "OpenAI API reference: authentication (sk-proj-, sk-svcacct-, sk-admin- and legacy sk- keys)")
def _(g):
    a = openai_key(g)
    legacy = openai_key(g, "legacy")
    extra = [
        T("header", f"Authorization: Bearer {a}", [a]),
        T("cli_argument", f"llm keys set openai --value {legacy}", [legacy], "a legacy sk- key"),
    ]
    return token_cases(g, lambda: openai_key(g), "API key", ["OPENAI_API_KEY", "OPENAI_KEY", "OPENAI"], "api_key", extra)


@family("anthropic_key", "Anthropic API docs: authentication (sk-ant-api03- and sk-ant-admin01- keys)")
def _(g):
    a = anthropic_key(g)
    admin = anthropic_key(g, "admin01")
    extra = [
        T("header", f"x-api-key: {a}", [a], "the header Anthropic's API documents"),
        T("prose", f"Use the admin key {admin} to list workspaces.", [admin], "an admin key"),
    ]
    return token_cases(g, lambda: anthropic_key(g), "API key", ["ANTHROPIC_API_KEY", "CLAUDE_KEY", "ANTHROPIC"], "apiKey", extra)


@family("huggingface_token", "Hugging Face Hub docs: user access tokens (hf_ prefix) and organization API tokens (api_org_)")
def _(g):
    return token_cases(g, lambda: "hf_" + g.s(UPPER + LOWER, 34), "access token", ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF"], "token", split=False)


@family("groq_key", "GroqCloud docs: API keys (gsk_ prefix)")
def _(g):
    return token_cases(g, lambda: "gsk_" + g.s(ALNUM, 52), "API key", ["GROQ_API_KEY", "GROQ"], "apiKey", split=False, structured=False)


@family("replicate_token", "Replicate docs: API tokens (r8_ prefix)")
def _(g):
    return token_cases(g, lambda: "r8_" + g.s(ALNUM, 37), "API token", ["REPLICATE_API_TOKEN", "REPLICATE"], "token", split=False, structured=False)


@family("perplexity_key", "Perplexity API docs: API keys (pplx- prefix)")
def _(g):
    return token_cases(g, lambda: "pplx-" + g.s(ALNUM, 48), "API key", ["PERPLEXITY_API_KEY", "PPLX"], "apiKey", split=False, structured=False)


@family("xai_key", "xAI API docs: API keys (xai- prefix)")
def _(g):
    return token_cases(g, lambda: "xai-" + g.s(ALNUM, 80), "API key", ["XAI_API_KEY", "GROK"], "apiKey", split=False, structured=False)


@family("openrouter_key", "OpenRouter docs: API keys (sk-or-v1- prefix)")
def _(g):
    return token_cases(g, lambda: "sk-or-v1-" + g.s(HEX, 64), "API key", ["OPENROUTER_API_KEY", "OPENROUTER"], "apiKey", split=False, structured=False)


# --- package registries -----------------------------------------------------------------


@family("npm_token", "npm docs: about access tokens (npm_ prefix, GitHub's checksum format)")
def _(g):
    a, b = github_style(g, "npm_"), github_style(g, "npm_")
    extra = [
        T("npmrc", f"registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={a}\n", [a], ".npmrc"),
        T("yaml_value", f"npmAuthToken: {b}\nnpmRegistryServer: https://registry.npmjs.org\n", [b], ".yarnrc.yml"),
    ]
    return token_cases(g, lambda: github_style(g, "npm_"), "access token", ["NPM_TOKEN", "NODE_AUTH_TOKEN", "NPM"], "authToken", extra)


@family("pypi_token", "PyPI help: API tokens (pypi-AgEIcHlwaS5vcmc macaroons)")
def _(g):
    make = lambda: "pypi-AgEIcHlwaS5vcmc" + g.s(B64URL, 160)
    a, b = make(), make()
    extra = [
        T("ini", f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {a}\n", [a], ".pypirc"),
        T("cli_argument", f"twine upload -u __token__ -p {b} dist/*", [b]),
    ]
    return token_cases(g, make, "upload token", ["PYPI_TOKEN", "TWINE_PASSWORD", "PYPI"], "password", extra, split=False)


@family("rubygems_token", "RubyGems guides: API key scopes (rubygems_ prefix)")
def _(g):
    a = "rubygems_" + g.s(HEX, 48)
    extra = [T("yaml_value", f"---\n:rubygems_api_key: {a}\n", [a], "~/.gem/credentials")]
    return token_cases(g, lambda: "rubygems_" + g.s(HEX, 48), "API key", ["GEM_HOST_API_KEY", "RUBYGEMS"], "api_key", extra, split=False, structured=False)


@family("nuget_key", "NuGet docs: API keys (oy2 prefix)")
def _(g):
    a = "oy2" + g.s(LOWER + DIGITS, 43)
    extra = [T("cli_argument", f"dotnet nuget push pkg.nupkg --api-key {a} --source https://api.nuget.org/v3/index.json", [a])]
    return token_cases(g, lambda: "oy2" + g.s(LOWER + DIGITS, 43), "API key", ["NUGET_API_KEY", "NUGET"], "apiKey", extra, split=False, structured=False)


@family("dockerhub_pat", "Docker docs: personal access tokens (dckr_pat_ prefix)")
def _(g):
    a = "dckr_pat_" + g.s(B64URL, 27)
    extra = [T("cli_argument", f"docker login -u acme -p {a}", [a])]
    return token_cases(g, lambda: "dckr_pat_" + g.s(B64URL, 27), "access token", ["DOCKERHUB_TOKEN", "DOCKER_PAT"], "token", extra, split=False, structured=False)


# --- other documented prefixes ----------------------------------------------------------


@family("twilio", "Twilio docs: API keys and auth tokens (AC account SIDs, SK key SIDs, 32-hex secrets)")
def _(g):
    cases = []
    sid = lambda: "AC" + g.s(HEX, 32)
    t = g.s(HEX, 32)
    cases.append(T("env_assignment", f"TWILIO_ACCOUNT_SID={sid()}\nTWILIO_AUTH_TOKEN={t}", [t]))
    t = g.s(HEX, 32)
    cases.append(T("url_userinfo", f"https://{sid()}:{t}@api.twilio.com/2010-04-01/Accounts.json", [t]))
    t = g.s(HEX, 32)
    cases.append(T("code", f'client = Client("{sid()}", "{t}")', [t], "the auth token as a positional argument"))
    t = g.s(ALNUM, 32)
    cases.append(T("prose", f"API key SK{g.s(HEX, 32)} with secret {t}", [t]))
    t = g.s(HEX, 32)
    cases.append(T("cli_argument", f"curl -X GET 'https://api.twilio.com/2010-04-01/Accounts.json' -u {sid()}:{t}", [t]))
    t = g.s(HEX, 32)
    cases.append(T("json_text", json.dumps({"twilio": {"accountSid": sid(), "authToken": t}}), [t]))
    t = g.s(HEX, 32)
    cases.append(T("yaml_value", f"twilio:\n  sid: {sid()}\n  auth_token: {t}\n", [t]))
    return cases


@family("sendgrid", "Twilio SendGrid docs: API keys (SG. prefix, two segments)")
def _(g):
    make = lambda: "SG." + g.s(B64URL, 22) + "." + g.s(B64URL, 43)
    return token_cases(g, make, "API key", ["SENDGRID_API_KEY", "SENDGRID"], "apiKey", split=False)


@family("mailchimp", "Mailchimp Marketing API docs: API keys (32 hex, a data-center suffix)")
def _(g):
    make = lambda: g.s(HEX, 32) + "-us" + str(g.int(1, 21))
    a = make()
    extra = [T("url_userinfo", f"https://anystring:{a}@us6.api.mailchimp.com/3.0/lists", [a], "the Basic-auth form Mailchimp's docs show")]
    return token_cases(g, make, "API key", ["MAILCHIMP_API_KEY", "MAILCHIMP"], "apikey", extra, split=False, structured=False)


@family("mailgun", "Mailgun docs: API keys (key- prefix)")
def _(g):
    make = lambda: "key-" + g.s(HEX, 32)
    return token_cases(g, make, "API key", ["MAILGUN_API_KEY", "MAILGUN"], "apiKey", split=False, structured=False)


@family("datadog", "Datadog docs: API and application keys (DD-API-KEY, DD-APPLICATION-KEY headers)")
def _(g):
    cases = []
    k = g.s(HEX, 32)
    cases.append(T("header", f"DD-API-KEY: {k}", [k]))
    k = g.s(HEX, 40)
    cases.append(T("header", f"DD-APPLICATION-KEY: {k}", [k], "the application key header has no 'api' in it"))
    k = g.s(HEX, 32)
    cases.append(T("env_assignment", f"DD_API_KEY={k}", [k]))
    k = g.s(HEX, 40)
    cases.append(T("env_assignment", f"DD_APP_KEY={k}", [k]))
    k = g.s(HEX, 32)
    cases.append(T("yaml_value", f"# datadog.yaml\napi_key: {k}\nsite: datadoghq.eu\n", [k]))
    k = g.s(HEX, 32)
    cases.append(T("cli_argument", f'curl -X GET "https://api.datadoghq.com/api/v1/validate" -H "DD-API-KEY: {k}"', [k]))
    k = g.s(HEX, 40)
    cases.append(T("json_text", json.dumps({"datadog": {"appKey": k}}), [k]))
    k = g.s(HEX, 32)
    cases.append(T("url_query", f"https://api.datadoghq.com/api/v1/series?api_key={k}", [k]))
    return cases


@family("vault_token", "HashiCorp Vault docs: tokens (hvs. service, hvb. batch, legacy s. tokens)")
def _(g):
    make = lambda: g.pick(["hvs.CAESI" + g.s(B64URL, 90), "hvb.AAAAAQ" + g.s(B64URL, 140), "s." + g.s(ALNUM, 24)])
    a = "hvs.CAESI" + g.s(B64URL, 90)
    extra = [T("header", f"X-Vault-Token: {a}", [a])]
    return token_cases(g, make, "Vault token", ["VAULT_TOKEN", "VAULT"], "token", extra)


@family("shopify", "Shopify docs: access tokens (shpat_, shpca_, shppa_ tokens and shpss_ shared secrets)")
def _(g):
    make = lambda: g.pick(["shpat_", "shpca_", "shppa_", "shpss_"]) + g.s(HEX, 32)
    a = "shpat_" + g.s(HEX, 32)
    extra = [T("header", f"X-Shopify-Access-Token: {a}", [a])]
    return token_cases(g, make, "access token", ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY"], "accessToken", extra, split=False)


@family("linear", "Linear API docs: personal API keys (lin_api_ prefix)")
def _(g):
    make = lambda: "lin_api_" + g.s(ALNUM, 40)
    return token_cases(g, make, "API key", ["LINEAR_API_KEY", "LINEAR"], "apiKey", split=False)


@family("digitalocean_token", "DigitalOcean docs: personal access tokens (dop_v1_, doo_v1_, dor_v1_)")
def _(g):
    make = lambda: g.pick(["dop_v1_", "doo_v1_", "dor_v1_"]) + g.s(HEX, 64)
    return token_cases(g, make, "access token", ["DIGITALOCEAN_TOKEN", "DO"], "token", split=False, structured=False)


@family("postman_key", "Postman docs: API keys (PMAK- prefix)")
def _(g):
    make = lambda: "PMAK-" + g.s(HEX, 24) + "-" + g.s(HEX, 34)
    return token_cases(g, make, "API key", ["POSTMAN_API_KEY", "POSTMAN"], "apiKey", split=False, structured=False)


@family("new_relic_key", "New Relic docs: API keys (NRAK- user keys)")
def _(g):
    make = lambda: "NRAK-" + g.s(UPPER + DIGITS, 27)
    return token_cases(g, make, "user key", ["NEW_RELIC_API_KEY", "NEWRELIC"], "apiKey", split=False, structured=False)


@family("grafana_token", "Grafana docs: service account tokens (glsa_) and Grafana Cloud tokens (glc_)")
def _(g):
    make = lambda: g.pick(["glsa_" + g.s(ALNUM, 32) + "_" + g.s(HEX, 8), "glc_" + g.s(B64, 120)])
    return token_cases(g, make, "service account token", ["GRAFANA_TOKEN", "GRAFANA"], "token", split=False, structured=False)


@family("sentry_token", "Sentry docs: auth tokens (sntryu_ user tokens, sntrys_ organization tokens: base64 claims, then a secret)")
def _(g):
    make = lambda: "sntryu_" + g.s(HEX, 64)
    return token_cases(g, make, "auth token", ["SENTRY_AUTH_TOKEN", "SENTRY"], "authToken", split=False, structured=False)


@family("doppler_token", "Doppler docs: service and personal tokens (dp.st., dp.st.<config>., dp.pt.)")
def _(g):
    make = lambda: g.pick(["dp.st.", "dp.pt.", "dp.sa."]) + g.s(ALNUM, 43)
    return token_cases(g, make, "service token", ["DOPPLER_TOKEN", "DOPPLER"], "token", split=False, structured=False)


@family("pulumi_token", "Pulumi docs: access tokens (pul- prefix)")
def _(g):
    make = lambda: "pul-" + g.s(HEX, 40)
    return token_cases(g, make, "access token", ["PULUMI_ACCESS_TOKEN", "PULUMI"], "token", split=False, structured=False)


@family("databricks_token", "Databricks docs: personal access tokens (dapi prefix)")
def _(g):
    make = lambda: "dapi" + g.s(HEX, 32)
    return token_cases(g, make, "access token", ["DATABRICKS_TOKEN", "DATABRICKS"], "token", split=False, structured=False)


@family("notion_token", "Notion API docs: integration tokens (ntn_ and legacy secret_)")
def _(g):
    make = lambda: g.pick(["ntn_" + g.s(DIGITS, 11) + g.s(ALNUM, 35), "secret_" + g.s(ALNUM, 43)])
    return token_cases(g, make, "integration token", ["NOTION_TOKEN", "NOTION"], "token", split=False, structured=False)


@family("terraform_cloud_token", "HashiCorp Terraform docs: API tokens (<id>.atlasv1.<secret>)")
def _(g):
    make = lambda: g.s(LOWER + DIGITS, 14) + ".atlasv1." + g.s(B64URL, 67)
    a = make()
    extra = [T("hcl", f'credentials "app.terraform.io" {{\n  token = "{a}"\n}}\n', [a], "credentials.tfrc.json's HCL form")]
    return token_cases(g, make, "API token", ["TF_TOKEN_app_terraform_io", "TFC"], "token", extra, split=False, structured=False)


@family("age_secret_key", "age file encryption (age-encryption.org/v1): AGE-SECRET-KEY-1 Bech32 identities")
def _(g):
    make = lambda: "AGE-SECRET-KEY-1" + g.s(BECH32, 58)
    a = make()
    extra = [T("keyfile", f"# created: 2024-05-17T10:00:00Z\n# public key: age1{g.s(BECH32.lower(), 58)}\n{a}\n", [a], "an age identity file")]
    return token_cases(g, make, "identity", ["SOPS_AGE_KEY", "AGE"], "key", extra, split=False, structured=False)


@family("heroku_key", "Heroku Dev Center: API keys and authorization tokens (HRKU-AA prefix)")
def _(g):
    make = lambda: "HRKU-AA" + g.s(B64URL, 58)
    return token_cases(g, make, "API key", ["HEROKU_API_KEY", "HEROKU"], "apiKey", split=False, structured=False)


@family("planetscale_token", "PlanetScale docs: service tokens and passwords (pscale_tkn_, pscale_pw_)")
def _(g):
    make = lambda: g.pick(["pscale_tkn_", "pscale_pw_", "pscale_oauth_"]) + g.s(B64URL, 43)
    return token_cases(g, make, "service token", ["PLANETSCALE_TOKEN", "PSCALE"], "token", split=False, structured=False)


@family("facebook_token", "Meta for Developers: access tokens (EAA and a letter: EAAB, EAAC, EAAG, EAAJ... page, user and app tokens)")
def _(g):
    make = lambda: "EAAC" + g.s(ALNUM, 140)
    return token_cases(g, make, "page access token", ["FB_PAGE_TOKEN", "FACEBOOK"], "access_token", split=False, structured=False)


# --- formats added after the first corpus -------------------------------------------------
# Each family below, and each `@more` block, plants formats a leak test found passing
# through redaction.


def token_places(g, make, what, env_name):
    """A few placements for a format added to an existing family."""
    a, b, c, d = make(), make(), make(), make()
    return [
        T("prose", prose(g, a, what), [a]),
        T("env_assignment", f"{env_name}={b}", [b]),
        T("json_text", json.dumps({"provider": what, "value": c}), [c]),
        T("log_line", log_line(g, d, what), [d]),
    ]


@more("slack_token")
def _(g):
    client = lambda: f"xoxc-{g.s(DIGITS, 11)}-{g.s(DIGITS, 12)}-{g.s(DIGITS, 13)}-{g.s(HEX, 64)}"
    cookie = lambda: "xoxd-" + urllib.parse.quote(g.b64(120), safe="")
    return token_places(g, client, "client token", "SLACK_XOXC") + token_places(g, cookie, "d cookie", "SLACK_XOXD")


@more("gitlab_token")
def _(g):
    make = lambda: "glpat-" + g.s(B64URL, 27) + ".01." + g.s(LOWER + DIGITS, 9)
    return token_places(g, make, "routable access token", "GITLAB_TOKEN")


@more("gitlab_other_token")
def _(g):
    make = lambda: g.pick(["glagent-" + g.s(B64URL, 50), "glsoat-" + g.s(B64URL, 20), "glffct-" + g.s(B64URL, 20)])
    return token_places(g, make, "agent token", "GITLAB_AGENT_TOKEN")


@more("atlassian_api_token")
def _(g):
    make = lambda: "ATCTT3xFfGN0" + g.s(B64URL, 166) + "=" + g.s(HEX.upper(), 8)
    return token_places(g, make, "organization API key", "ATLASSIAN_ADMIN_KEY")


@more("huggingface_token")
def _(g):
    make = lambda: "api_org_" + g.s(UPPER + LOWER, 34)
    return token_places(g, make, "organization token", "HF_ORG_TOKEN")


@more("sentry_token")
def _(g):
    def make():
        claims = {"iat": 1716000000 + g.int(0, 10**6), "url": "https://sentry.io", "region_url": "https://us.sentry.io", "org": "acme-" + g.s(LOWER, g.int(1, 6))}
        return "sntrys_" + base64.b64encode(json.dumps(claims, separators=(",", ":")).encode()).decode() + "_" + g.s(ALNUM + "+/", 43)

    return token_places(g, make, "organization auth token", "SENTRY_AUTH_TOKEN")


@more("doppler_token")
def _(g):
    make = lambda: "dp.st." + g.pick(["dev", "stg", "prd", "dev_personal", "ci-e2e"]) + "." + g.s(ALNUM, 43)
    return token_places(g, make, "service token", "DOPPLER_TOKEN")


@more("facebook_token")
def _(g):
    make = lambda: "EAA" + g.pick("BGIJMd") + g.s(ALNUM, g.int(150, 220))
    return token_places(g, make, "user access token", "FB_ACCESS_TOKEN")


def jwe(g, direct=False):
    alg = "dir" if direct else "RSA-OAEP-256"
    header = b64u(json.dumps({"alg": alg, "enc": "A256GCM", "kid": g.s(B64URL, 8)}, separators=(",", ":")).encode())
    key = "" if direct else b64u(g.raw(256))
    return ".".join([header, key, b64u(g.raw(12)), b64u(g.raw(g.int(40, 200))), b64u(g.raw(16))])


def padded_jwt(g):
    """A JWT whose encoder kept base64's `=` padding on each segment."""
    while True:
        header = json.dumps({"alg": "HS256", "typ": "JWT", "kid": g.s(ALNUM, g.int(1, 9))}, separators=(",", ":")).encode()
        claims = json.dumps({"sub": str(g.int(10**5, 10**9)), "name": g.s(LOWER, g.int(3, 12))}, separators=(",", ":")).encode()
        if len(header) % 3 and len(claims) % 3:
            break
    pad = lambda data: base64.urlsafe_b64encode(data).decode()
    return f"{pad(header)}.{pad(claims)}.{pad(g.raw(32))}"


@more("jwt")
def _(g):
    a, b, c, d = jwe(g), jwe(g, direct=True), padded_jwt(g), padded_jwt(g)
    return [
        T("prose", f"The encrypted token {a} could not be decrypted.", [a], "a JWE: five segments"),
        T("json_text", json.dumps({"id_token": b, "token_type": "Bearer"}), [b], "a JWE under direct encryption: its encrypted key is empty"),
        T("header", f"Authorization: Bearer {c}", [c], "a JWT whose segments keep their = padding"),
        T("log_line", log_line(g, d, "jwt"), [d], "a JWT whose segments keep their = padding"),
    ]


def few_cases(g, make, what, env_names, yaml_key="token"):
    return token_cases(g, make, what, env_names, yaml_key, split=False, structured=False)


@family("tailscale_key", "Tailscale docs: auth keys and API access tokens (tskey-auth-, tskey-api-, tskey-client- and other tskey- kinds)")
def _(g):
    make = lambda: "tskey-" + g.pick(["auth", "api", "client", "scim", "webhook"]) + "-k" + g.s(ALNUM, 10) + "CNTRL-" + g.s(ALNUM, 33)
    return few_cases(g, make, "auth key", ["TS_AUTHKEY", "TAILSCALE_API_KEY"], "authKey")


@family("airtable_pat", "Airtable: personal access tokens (pat, a 14-character id, a dot, 64 hex)")
def _(g):
    make = lambda: "pat" + g.s(ALNUM, 14) + "." + g.s(HEX, 64)
    return few_cases(g, make, "personal access token", ["AIRTABLE_TOKEN", "AIRTABLE_API_KEY"])


@family("dynatrace_token", "Dynatrace docs: access tokens (dt0c01.<24-character public part>.<64-character secret>)")
def _(g):
    make = lambda: "dt0c01." + g.s(UPPER + DIGITS, 24) + "." + g.s(UPPER + DIGITS, 64)
    return few_cases(g, make, "API token", ["DT_API_TOKEN", "DYNATRACE_TOKEN"], "apiToken")


@family("nvidia_key", "NVIDIA API catalog: API keys (nvapi- prefix)")
def _(g):
    make = lambda: "nvapi-" + g.s(B64URL, 64)
    return few_cases(g, make, "API key", ["NVIDIA_API_KEY", "NGC_API_KEY"], "apiKey")


@family("langsmith_key", "LangSmith docs: API keys (lsv2_pt_ personal access tokens, lsv2_sk_ service keys)")
def _(g):
    make = lambda: g.pick(["lsv2_pt_", "lsv2_sk_"]) + g.s(HEX, 32) + "_" + g.s(HEX, 10)
    return few_cases(g, make, "API key", ["LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"], "apiKey")


@family("tavily_key", "Tavily docs: API keys (tvly- prefix)")
def _(g):
    make = lambda: g.pick(["tvly-", "tvly-dev-"]) + g.s(ALNUM, 32)
    return few_cases(g, make, "API key", ["TAVILY_API_KEY", "TAVILY"], "apiKey")


@family("firecrawl_key", "Firecrawl docs: API keys (fc- and 32 hex)")
def _(g):
    make = lambda: "fc-" + g.s(HEX, 32)
    return few_cases(g, make, "API key", ["FIRECRAWL_API_KEY", "FIRECRAWL"], "apiKey")


@family("langfuse_key", "Langfuse docs: API keys (sk-lf- secret keys)")
def _(g):
    make = lambda: "sk-lf-" + g.uuid()
    return few_cases(g, make, "secret key", ["LANGFUSE_SECRET_KEY", "LANGFUSE"], "secretKey")


@family("posthog_key", "PostHog docs: personal API keys (phx_ prefix)")
def _(g):
    make = lambda: "phx_" + g.s(ALNUM, 47)
    return few_cases(g, make, "personal API key", ["POSTHOG_PERSONAL_API_KEY", "POSTHOG"], "apiKey")


@family("dropbox_token", "Dropbox developers: short-lived access tokens (sl. and sl.u. prefixes)")
def _(g):
    make = lambda: g.pick(["sl.", "sl.u."]) + g.s(B64URL, g.int(135, 180))
    return few_cases(g, make, "access token", ["DROPBOX_ACCESS_TOKEN", "DROPBOX"], "accessToken")


@family("mapbox_secret_token", "Mapbox docs: access tokens (sk. secret tokens; pk. public ones are meant to be shown)")
def _(g):
    def make():
        claims = b64u(json.dumps({"u": "acme" + g.s(LOWER, 4), "a": g.s(LOWER + DIGITS, 25)}, separators=(",", ":")).encode())
        return "sk." + claims + "." + g.s(B64URL, 22)

    return few_cases(g, make, "secret token", ["MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN"], "accessToken")


@family("contentful_token", "Contentful docs: personal access tokens (CFPAT- prefix)")
def _(g):
    make = lambda: "CFPAT-" + g.s(B64URL, 43)
    return few_cases(g, make, "management token", ["CONTENTFUL_MANAGEMENT_TOKEN", "CONTENTFUL"], "managementToken")


@family("alibaba_access_key_id", "Alibaba Cloud docs: AccessKey pairs (LTAI access key ids)")
def _(g):
    make = lambda: "LTAI" + g.s(ALNUM, 20)
    return few_cases(g, make, "AccessKey id", ["ALIBABA_CLOUD_ACCESS_KEY_ID", "ALICLOUD_ACCESS_KEY"], "accessKeyId")


@family("buildkite_token", "Buildkite docs: API access tokens (bkua_ prefix)")
def _(g):
    make = lambda: "bkua_" + g.s(LOWER + DIGITS, 40)
    return few_cases(g, make, "API access token", ["BUILDKITE_API_TOKEN", "BUILDKITE"], "token")


@family("circleci_token", "CircleCI docs: personal API tokens (CCIPAT_ prefix)")
def _(g):
    make = lambda: "CCIPAT_" + g.s(ALNUM, 22) + "_" + g.s(HEX, 40)
    return few_cases(g, make, "personal API token", ["CIRCLECI_TOKEN", "CIRCLE_TOKEN"], "token")


@family("netlify_token", "Netlify docs: personal access tokens (nfp_ prefix)")
def _(g):
    make = lambda: "nfp_" + g.s(ALNUM, 36)
    return few_cases(g, make, "personal access token", ["NETLIFY_AUTH_TOKEN", "NETLIFY"], "token")


@family("render_key", "Render docs: API keys (rnd_ prefix)")
def _(g):
    make = lambda: "rnd_" + g.s(ALNUM, 24)
    return few_cases(g, make, "API key", ["RENDER_API_KEY", "RENDER"], "apiKey")


@family("supabase_secret_key", "Supabase docs: API keys (sb_secret_ secret keys; sb_publishable_ keys are public)")
def _(g):
    make = lambda: "sb_secret_" + g.s(B64URL, 31)
    return few_cases(g, make, "secret key", ["SUPABASE_SECRET_KEY", "SUPABASE"], "secretKey")


@family("sourcegraph_token", "Sourcegraph docs: access tokens (sgp_ prefix)")
def _(g):
    make = lambda: "sgp_" + g.pick([g.s(HEX, 16) + "_", "local_", ""]) + g.s(HEX, 40)
    return few_cases(g, make, "access token", ["SRC_ACCESS_TOKEN", "SOURCEGRAPH"], "token")


@family("jfrog_key", "JFrog Artifactory docs: API keys (AKCp prefix)")
def _(g):
    make = lambda: "AKCp" + g.s(ALNUM, 69)
    return few_cases(g, make, "API key", ["ARTIFACTORY_API_KEY", "JFROG"], "apiKey")


@family("brevo_key", "Brevo (Sendinblue) docs: API keys (xkeysib- and xsmtpsib- prefixes)")
def _(g):
    make = lambda: g.pick(["xkeysib-", "xsmtpsib-"]) + g.s(HEX, 64) + "-" + g.s(ALNUM, 16)
    return few_cases(g, make, "API key", ["BREVO_API_KEY", "SENDINBLUE_API_KEY"], "apiKey")


@family("clojars_token", "Clojars: deploy tokens (CLOJARS_ prefix)")
def _(g):
    make = lambda: "CLOJARS_" + g.s(LOWER + DIGITS, 60)
    return few_cases(g, make, "deploy token", ["CLOJARS_PASSWORD", "CLOJARS"], "password")


@family("onepassword_token", "1Password developer docs: service account tokens (ops_ and base64 of their JSON)")
def _(g):
    def make():
        claims = {"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": g.s(B64URL, 22)}, "email": g.s(LOWER, 12) + "@1passwordserviceaccounts.com", "srpX": g.s(HEX, 64), "muk": {"alg": "A256GCM", "ext": True, "k": g.s(B64URL, 43), "key_ops": ["encrypt", "decrypt"], "kty": "oct", "kid": "mp"}, "secretKey": "A3-" + g.s(UPPER + DIGITS, 26), "throttleSecret": {"seed": g.s(HEX, 64), "uuid": g.s(UPPER + DIGITS, 26)}, "deviceUuid": g.s(LOWER + DIGITS, 26)}
        return "ops_" + base64.b64encode(json.dumps(claims, separators=(",", ":")).encode()).decode()

    return few_cases(g, make, "service account token", ["OP_SERVICE_ACCOUNT_TOKEN", "ONEPASSWORD"], "token")


@family("flyio_token", "Fly.io docs: access tokens (FlyV1 fm2_ macaroons, comma-separated)")
def _(g):
    def make():
        return "fm2_" + base64.b64encode(g.raw(g.int(120, 300))).decode()

    a, b = make(), make()
    extra = [T("header", f"Authorization: FlyV1 {a},{b}", [a, b], "a token of two macaroons")]
    return token_cases(g, make, "deploy token", ["FLY_API_TOKEN", "FLY_ACCESS_TOKEN"], "token", extra, split=False, structured=False)


# --- JWTs and private keys --------------------------------------------------------------


@family("jwt", "RFC 7519 (JSON Web Token), RFC 7515 (JWS compact serialization) and RFC 7516 (JWE compact serialization: five segments)")
def _(g):
    cases = []
    t = jwt(g)
    cases.append(T("prose", f"The session token {t} was rejected.", [t]))
    t = jwt(g, "RS256")
    cases.append(T("header", f"Authorization: Bearer {t}", [t]))
    t = jwt(g)
    cases.append(T("cookie_header", f"Cookie: session={t}; theme=dark", [t]))
    t = jwt(g, "ES256")
    cases.append(T("json_text", json.dumps({"id_token": t, "expires_in": 3600}), [t]))
    t = jwt(g)
    cases.append(T("url_fragment", f"https://app.example.com/callback#access_token={t}&token_type=Bearer&expires_in=3600", [t], "the implicit flow's fragment"))
    t = jwt(g, sig=False)
    cases.append(T("prose", f"unsigned token {t} (alg none)", [t], "no signature: header.payload."))
    t = jwt(g)
    cases.append(T("log_line", log_line(g, t, "jwt"), [t]))
    t = jwt(g)
    cases.append(T("json_escaped", json.dumps({"body": json.dumps({"token": t})}), [t]))
    t = jwt(g, "RS256")
    k = split_point(t)
    cases.append(R("split_blocks", [f"token: {t[:k]}", t[k:]], [t]))
    t = jwt(g)
    cases.append(R("structured", ["auth failed"], [t], structured={"session": {"jwt": t}}))
    t = jwt(g, "EdDSA")
    cases.append(T("yaml_value", f"auth:\n  serviceAccountToken: {t}\n", [t]))
    t = jwt(g)
    cases.append(T("url_query", f"wss://realtime.example.com/socket?vsn=2.0.0&jwt={t}", [t]))
    return cases


def pem_text(begin, body, end, sep="\n"):
    return sep.join([begin] + body + [end])


@family("private_key_pem", "RFC 7468 (textual encodings: PRIVATE KEY, ENCRYPTED PRIVATE KEY), RFC 8017 and RFC 5915 (RSA and EC private keys)")
def _(g):
    cases = []
    kinds = [
        ("PRIVATE KEY", DER_PKCS8_RSA, 1217),
        ("RSA PRIVATE KEY", DER_PKCS1_RSA, 1192),
        ("EC PRIVATE KEY", DER_EC, 121),
        ("PRIVATE KEY", DER_PKCS8_ED25519, 48),
        ("ENCRYPTED PRIVATE KEY", DER_ENCRYPTED, 1320),
        ("DSA PRIVATE KEY", DER_DSA, 447),
    ]
    for label, der, size in kinds:
        begin, body, end = pem(g, label, der, size)
        cases.append(T("multiline", "key file contents:\n" + pem_text(begin, body, end) + "\n", long_lines(body), label))
    begin, body, end = pem(g, "PRIVATE KEY", DER_PKCS8_RSA, 1217)
    cases.append(T("json_escaped", json.dumps({"tls": {"key": pem_text(begin, body, end) + "\n"}}), long_lines(body), "JSON text: the newlines are \\n"))
    begin, body, end = pem(g, "RSA PRIVATE KEY", DER_PKCS1_RSA, 1192)
    headers = ["Proc-Type: 4,ENCRYPTED", f"DEK-Info: AES-128-CBC,{g.s(HEX, 32).upper()}", ""]
    cases.append(T("multiline", "\n".join([begin] + headers + body + [end]), long_lines(body), "legacy encrypted PEM with headers"))
    begin, body, end = pem(g, "EC PRIVATE KEY", DER_EC, 121)
    cases.append(T("env_assignment", "TLS_KEY=" + pem_text(begin, body, end, " "), long_lines(body), "flattened onto one line with spaces"))
    begin, body, end = pem(g, "PRIVATE KEY", DER_PKCS8_RSA, 1217)
    cases.append(T("crlf", pem_text(begin, body, end, "\r\n"), long_lines(body), "CRLF line ends"))
    begin, body, end = pem(g, "PRIVATE KEY", DER_PKCS8_RSA, 1217)
    cases.append(T("body_only", "\n".join(body[:12]) + "\n(truncated)", long_lines(body[:12]), "the armor lines cut off: only base64 lines"))
    begin, body, end = pem(g, "PRIVATE KEY", DER_PKCS8_RSA, 1217)
    cases.append(R("split_blocks", [pem_text(begin, body[:8], ""), "\n".join(body[8:] + [end])], long_lines(body), note="BEGIN in one block, the rest in the next"))
    begin, body, end = pem(g, "PRIVATE KEY", DER_PKCS8_ED25519, 48)
    cases.append(R("structured", ["bad key"], long_lines(body), structured={"tls": {"privateKey": pem_text(begin, body, end)}}))
    begin, body, end = pem(g, "PRIVATE KEY", DER_PKCS8_RSA, 1217)
    double = json.dumps(json.dumps({"key": pem_text(begin, body, end)}))
    cases.append(T("json_escaped", double, long_lines(body), "escaped twice: the newlines are \\\\n"))
    begin, body, end = pem(g, "PRIVATE KEY", DER_PKCS8_RSA, 1217)
    cases.append(T("yaml_value", "tls:\n  key: |\n" + "".join("    " + line + "\n" for line in [begin] + body + [end]), long_lines(body), "indented YAML block scalar"))
    return cases


@family("openssh_private_key", "OpenSSH PROTOCOL.key (the openssh-key-v1 format)")
def _(g):
    cases = []
    begin, body, end = openssh_key(g)
    cases.append(T("multiline", pem_text(begin, body, end) + "\n", long_lines(body)))
    begin, body, end = openssh_key(g)
    cases.append(T("json_escaped", json.dumps({"deploy_key": pem_text(begin, body, end) + "\n"}), long_lines(body)))
    begin, body, end = openssh_key(g)
    cases.append(T("yaml_value", "ssh:\n  key: |\n" + "".join("    " + line + "\n" for line in [begin] + body + [end]), long_lines(body)))
    begin, body, end = openssh_key(g)
    cases.append(T("env_assignment", "SSH_PRIVATE_KEY=" + pem_text(begin, body, end, " "), long_lines(body), "flattened onto one line"))
    begin, body, end = openssh_key(g)
    cases.append(R("structured", ["ssh failed"], long_lines(body), structured={"ssh": {"identity": pem_text(begin, body, end)}}))
    begin, body, end = openssh_key(g)
    cases.append(R("split_blocks", [pem_text(begin, body[:3], ""), "\n".join(body[3:] + [end])], long_lines(body)))
    return cases


@family("pgp_private_key", "RFC 4880 (OpenPGP: ASCII armor and its CRC-24 checksum)")
def _(g):
    cases = []
    for placement in ["multiline", "json_escaped", "yaml_value", "structured"]:
        begin, body, checksum, end = pgp_key(g)
        armored = "\n".join([begin, "", *body, checksum, end])
        if placement == "multiline":
            cases.append(T(placement, armored + "\n", long_lines(body)))
        elif placement == "json_escaped":
            cases.append(T(placement, json.dumps({"signing_key": armored}), long_lines(body)))
        elif placement == "yaml_value":
            cases.append(T(placement, "gpg:\n  key: |\n" + "".join("    " + line + "\n" for line in armored.splitlines()), long_lines(body)))
        else:
            cases.append(R(placement, ["import failed"], long_lines(body), structured={"gpg": armored}))
    begin, body, checksum, end = pgp_key(g)
    armored = "\n".join([begin, "Version: GnuPG v2", "Comment: release signing", "", *body, checksum, end])
    cases.append(T("multiline", armored, long_lines(body), "armor headers"))
    return cases


@family("ssh2_private_key", "RFC 4716 armor (---- BEGIN SSH2 ... ----), as ssh.com/Tectia private keys use it")
def _(g):
    cases = []
    for comment in ['Comment: "rsa-key-20240517"', 'Subject: deploy\nComment: "ci"']:
        begin, body, end = ssh2_key(g)
        cases.append(T("multiline", "\n".join([begin, comment] + body + [end]), long_lines(body)))
    begin, body, end = ssh2_key(g)
    cases.append(T("json_escaped", json.dumps({"key": "\n".join([begin] + body + [end])}), long_lines(body)))
    return cases


@family("putty_private_key", "PuTTY documentation, appendix C (the PPK file format, versions 2 and 3)")
def _(g):
    cases = []
    text, sec = putty_key(g, 3)
    cases.append(T("multiline", text, sec))
    text, sec = putty_key(g, 2)
    cases.append(T("multiline", text, sec, "version 2"))
    text, sec = putty_key(g, 3)
    cases.append(T("json_escaped", json.dumps({"ppk": text}), sec))
    text, sec = putty_key(g, 3)
    cases.append(R("structured", ["key rejected"], sec, structured={"ppk": text}))
    return cases


# --- HTTP headers -----------------------------------------------------------------------


@family("authorization_header", "RFC 9110 section 11 (HTTP authentication), RFC 7617 (Basic), RFC 6750 (Bearer), RFC 7616 (Digest), RFC 4559 (Negotiate), AWS Signature Version 4, RFC 5849 (OAuth 1.0), RFC 9449 (DPoP)")
def _(g):
    cases = []
    t = g.s(B64URL, 40)
    cases.append(T("header", f"Authorization: Bearer {t}", [t]))
    user, pw = "deploy", g.password()
    b = base64.b64encode(f"{user}:{pw}".encode()).decode()
    cases.append(T("header", f"Authorization: Basic {b}", [b]))
    t = g.s(HEX, 40)
    cases.append(T("header", f"authorization: token {t}", [t], "lower case"))
    resp = g.s(HEX, 32)
    cases.append(T("header", f'Authorization: Digest username="ann", realm="api", nonce="{g.s(HEX, 32)}", uri="/v1/x", qop=auth, nc=00000001, cnonce="{g.s(HEX, 8)}", response="{resp}", opaque="{g.s(HEX, 32)}"', [resp]))
    neg = "YII" + g.s(B64, 200) + "=="
    cases.append(T("header", f"Authorization: Negotiate {neg}", [neg]))
    ntlm = "TlRMTVNTUAADAAAA" + g.s(B64, 180)
    cases.append(T("header", f"Authorization: NTLM {ntlm}", [ntlm], "a scheme the engine may not know"))
    sig = g.s(HEX, 64)
    cases.append(T("header", f"Authorization: AWS4-HMAC-SHA256 Credential={aws_key_id(g)}/20240517/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature={sig}", [sig]))
    k = g.s(ALNUM, 32)
    cases.append(T("header", f"Authorization: ApiKey {k}", [k]))
    k = "00" + g.s(B64URL, 40)
    cases.append(T("header", f"Authorization: SSWS {k}", [k], "Okta's scheme"))
    osig = urllib.parse.quote(g.b64(20), safe="")
    ck = g.s(ALNUM, 25)
    cases.append(T("header", f'Authorization: OAuth oauth_consumer_key="{ck}", oauth_nonce="{g.s(ALNUM, 32)}", oauth_signature="{osig}", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1716000000", oauth_token="{g.s(DIGITS, 19)}-{g.s(ALNUM, 30)}", oauth_version="1.0"', [osig]))
    t = jwt(g, "ES256")
    cases.append(T("header", f"Authorization: DPoP {t}", [t]))
    t = g.s(B64URL, 48)
    cases.append(T("cli_argument", f'curl -sS -H "Authorization: Bearer {t}" https://api.example.com/v1/me', [t]))
    t = g.s(B64URL, 48)
    cases.append(T("json_text", json.dumps({"headers": {"Authorization": f"Bearer {t}", "Accept": "application/json"}}), [t]))
    t = g.s(B64URL, 48)
    cases.append(T("json_text", json.dumps({"request": {"headers": [{"name": "Authorization", "value": f"Bearer {t}"}]}}), [t], "HAR name/value pair"))
    t = g.s(B64URL, 48)
    cases.append(T("code", f"headers = {{'Authorization': f'Bearer {t}'}}", [t], "Python dict with an f-string"))
    t = g.s(B64URL, 48)
    cases.append(T("log_line", f"{g.timestamp()} DEBUG > GET /v1/me HTTP/1.1\n> Host: api.example.com\n> authorization: Bearer {t}\n> accept: */*", [t], "curl -v output"))
    b = base64.b64encode(f"admin:{g.password()}".encode()).decode()
    cases.append(T("header", f"Authorization:Basic {b}", [b], "no space after the colon"))
    t = g.s(B64URL, 48)
    cases.append(R("structured", ["request failed"], [t], structured={"request": {"headers": {"authorization": f"Bearer {t}"}}}))
    t = g.s(B64URL, 48)
    cases.append(R("split_blocks", ["> GET /v1/me\n> Authorization: Bearer", f"{t}\n< HTTP/1.1 401"], [t], note="the scheme ends one block, the token starts the next"))
    t = g.s(HEX, 40)
    cases.append(T("header", f"Authorization: Hawk id=\"dh37fgj492je\", ts=\"1716000000\", nonce=\"j4h3g2\", mac=\"{t}\"", [t]))
    return cases


@family("proxy_authorization_header", "RFC 9110 section 11.7.2 (Proxy-Authorization)")
def _(g):
    cases = []
    b = base64.b64encode(f"proxyuser:{g.password()}".encode()).decode()
    cases.append(T("header", f"Proxy-Authorization: Basic {b}", [b]))
    t = g.s(B64URL, 40)
    cases.append(T("header", f"proxy-authorization: Bearer {t}", [t]))
    pw = g.password()
    cases.append(T("env_assignment", f"HTTPS_PROXY=http://proxyuser:{pw}@proxy.corp.example:3128", [pw]))
    ntlm = "TlRMTVNTUAADAAAA" + g.s(B64, 120)
    cases.append(T("header", f"Proxy-Authorization: NTLM {ntlm}", [ntlm]))
    b = base64.b64encode(f"u:{g.password()}".encode()).decode()
    cases.append(T("json_text", json.dumps({"proxyHeaders": {"Proxy-Authorization": f"Basic {b}"}}), [b]))
    return cases


@family("api_key_header", "Provider API docs for custom headers: X-Api-Key, api-key (Azure OpenAI), Ocp-Apim-Subscription-Key (Azure API Management), x-functions-key (Azure Functions), X-Auth-Token, X-Goog-Api-Key")
def _(g):
    cases = []
    headers = [
        "X-Api-Key",
        "api-key",
        "X-Auth-Token",
        "Ocp-Apim-Subscription-Key",
        "x-functions-key",
        "X-Postmark-Server-Token",
        "X-Figma-Token",
        "apikey",
        "X-Algolia-API-Key",
        "X-API-Secret",
        "X-Access-Token",
        "X-Session-Token",
    ]
    for h in headers:
        k = g.s(HEX, 32) if g.int(0, 1) else g.s(ALNUM, 40)
        cases.append(T("header", f"{h}: {k}", [k]))
    k = g.s(ALNUM, 40)
    cases.append(T("cli_argument", f"curl -H 'X-Api-Key: {k}' https://api.example.com/v2/items", [k]))
    k = g.s(HEX, 32)
    cases.append(T("json_text", json.dumps({"headers": {"Ocp-Apim-Subscription-Key": k}}), [k]))
    k = g.s(ALNUM, 40)
    cases.append(T("json_text", json.dumps({"header": [{"key": "X-Api-Key", "value": k, "type": "text"}]}), [k], "Postman collection key/value pair"))
    k = g.s(HEX, 32)
    cases.append(R("structured", ["forbidden"], [k], structured={"request": {"headers": [{"name": "api-key", "value": k}]}}))
    return cases


@family("cookie_header", "RFC 6265 (HTTP State Management: the Cookie header); curl's -b/--cookie; the Netscape cookies.txt format")
def _(g):
    cases = []
    v = g.s(B64URL, 40)
    cases.append(T("header", f"Cookie: sessionid={v}; csrftoken={g.s(ALNUM, 32)}", [v]))
    v1, v2 = g.s(HEX, 48), g.s(B64URL, 40)
    cases.append(T("log_line", f"{g.timestamp()} DEBUG request headers: Cookie: theme=dark; _session_id={v1}; remember_token={v2}", [v1, v2], "the header in the middle of a line"))
    v = g.s(B64URL, 40)
    cases.append(T("cli_argument", f"curl -b 'connect.sid=s%3A{v}' https://app.example.com/api", [v], "curl -b"))
    v = g.s(B64URL, 40)
    cases.append(T("cli_argument", f'curl --cookie "JSESSIONID={v}" https://app.example.com/', [v]))
    v = g.s(B64URL, 40)
    cases.append(T("json_text", json.dumps({"headers": {"cookie": f"sid={v}"}}), [v]))
    v = g.s(B64URL, 40)
    cases.append(T("json_text", json.dumps({"cookies": [{"name": "session", "value": v, "domain": ".example.com", "httpOnly": True}]}), [v], "a cookie jar export: name/value pairs"))
    v = g.s(B64URL, 40)
    cases.append(T("netscape_cookies", f"# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tTRUE\t1750000000\tsession\t{v}\n", [v], "cookies.txt, tab separated"))
    v = g.s(B64URL, 40)
    cases.append(R("structured", ["unauthorized"], [v], structured={"request": {"headers": {"Cookie": f"session={v}"}}}))
    v = g.s(B64URL, 40)
    cases.append(T("code", f"requests.get(url, cookies={{'session': '{v}'}})", [v]))
    v = g.s(B64URL, 40)
    cases.append(T("header", f"cookie: __Host-session={v}", [v], "lower case"))
    return cases


@family("set_cookie_header", "RFC 6265 (the Set-Cookie header)")
def _(g):
    cases = []
    v = g.s(B64URL, 40)
    cases.append(T("header", f"Set-Cookie: __Host-session={v}; Path=/; Secure; HttpOnly; SameSite=Lax", [v]))
    v = g.s(HEX, 64)
    cases.append(T("log_line", f"< HTTP/1.1 302 Found\n< Location: /home\n< set-cookie: auth_token={v}; Max-Age=86400", [v]))
    v = g.s(B64URL, 40)
    cases.append(T("json_text", json.dumps({"headers": {"set-cookie": [f"sid={v}; Path=/; HttpOnly"]}}), [v], "a header array"))
    v = g.s(B64URL, 40)
    cases.append(T("prose", f"the server responded with Set-Cookie: refresh={v}; HttpOnly", [v]))
    return cases


# --- URLs -------------------------------------------------------------------------------


@family("url_userinfo", "RFC 3986 section 3.2.1 (user information in URIs)")
def _(g):
    cases = []
    schemes = ["https", "postgres", "mysql", "mongodb+srv", "redis", "amqp", "ftp", "smtp", "sftp", "postgresql+psycopg2"]
    for scheme in schemes:
        pw = g.password()
        cases.append(T("url", f"connecting to {scheme}://app_user:{pw}@db.internal.example:5432/app", [pw]))
    pw = g.password()
    cases.append(T("url", f"redis://:{pw}@cache:6379/0", [pw], "password without a user"))
    pw = g.s(ALNUM, 8) + "@" + g.s(ALNUM, 8)
    cases.append(T("url", f"https://bob:{pw}@example.com/", [pw], "an unencoded @ in the password"))
    pw = g.s(ALNUM, 8) + "/" + g.s(ALNUM, 8)
    cases.append(T("url", f"https://bob:{pw}@example.com/", [pw], "an unencoded / in the password"))
    pw = g.s(ALNUM, 8) + "#" + g.s(ALNUM, 8)
    cases.append(T("url", f"ftp://bob:{pw}@files.example.com/in", [pw], "an unencoded # in the password"))
    pw = g.s(ALNUM, 8) + "?" + g.s(ALNUM, 8)
    cases.append(T("url", f"mysql://root:{pw}@localhost/db", [pw], "an unencoded ? in the password"))
    pw = urllib.parse.quote(g.s(ALNUM, 6) + "@/:" + g.s(ALNUM, 8), safe="")
    cases.append(T("url", f"https://ann:{pw}@example.com/x", [pw], "percent-encoded"))
    pw = g.s(ALNUM, 6) + " " + g.s(ALNUM, 8)
    cases.append(T("url", f'"https://ann:{pw}@example.com/x"', [pw], "a space in the password, quoted"))
    pw = g.password()
    cases.append(T("json_escaped", json.dumps({"url": f"https://ann:{pw}@example.com/x"}).replace("/", "\\/"), [pw], "JSON with escaped slashes"))
    pw = g.password()
    cases.append(T("url", f"https://ann:{pw}@[2001:db8::1]:8443/", [pw], "an IPv6 host"))
    pw = g.password()
    cases.append(T("git_credentials", f"https://ci-bot:{pw}@git.example.com\n", [pw], ".git-credentials"))
    pw = g.password()
    cases.append(T("pip_conf", f"[global]\nindex-url = https://__token__:{pw}@pypi.example.com/simple\n", [pw]))
    pw = g.password()
    cases.append(T("url", f"HTTPS://USER:{pw}@EXAMPLE.COM/", [pw], "upper-case scheme"))
    pw = g.password()
    cases.append(R("structured", ["fetch failed"], [pw], structured={"remote": f"https://bot:{pw}@git.example.com/a.git"}))
    pw = g.password()
    k = split_point(pw)
    cases.append(R("split_blocks", [f"cloning https://bot:{pw[:k]}", f"{pw[k:]}@git.example.com/a.git"], [pw]))
    pw = g.password()
    cases.append(T("url", f"jdbc:mysql://app:{pw}@db.example:3306/app", [pw], "JDBC prefix"))
    return cases


@family("url_query_secret", "RFC 6749 and RFC 6750 (OAuth 2.0 parameters), provider query parameters (Google key=, GitLab private_token=, HubSpot hapikey=), AWS SigV4 and Azure SAS query signing")
def _(g):
    cases = []
    names = [
        "access_token",
        "api_key",
        "apiKey",
        "key",
        "token",
        "client_secret",
        "refresh_token",
        "password",
        "private_token",
        "auth_token",
        "hapikey",
        "subscription-key",
        "secret_key",
        "apikey",
        "X-Amz-Signature",
        "sig",
        "code",
        "access-token",
        "authToken",
        "pass",
    ]
    for name in names:
        v = g.s(ALNUM, 32)
        cases.append(T("url_query", f"GET https://api.example.com/v1/items?page=2&{name}={v}&limit=50 -> 401", [v], name))
    v = g.s(ALNUM, 32)
    cases.append(T("url_query", f"https://api.example.com/v1?access%5Ftoken={v}", [v], "percent-encoded parameter name"))
    v = g.s(ALNUM, 32)
    cases.append(T("url_query", f"https://api.example.com/v1?%61pi_key={v}", [v], "percent-encoded letter in the name"))
    v = g.s(ALNUM, 32)
    cases.append(T("url_query", f"https://api.example.com/v1?ACCESS_TOKEN={v}", [v], "upper-case name"))
    v = g.s(ALNUM, 32)
    cases.append(T("form_body", f"grant_type=refresh_token&refresh_token={v}&client_id=abc", [v], "a form body, no ?"))
    v = g.s(ALNUM, 32)
    cases.append(T("form_body", f"client_secret={v}&grant_type=client_credentials", [v]))
    v = g.s(HEX, 32).upper()
    cases.append(T("url_path_param", f"https://shop.example.com/cart;jsessionid={v}?item=3", [v], "a ;jsessionid path parameter"))
    v = g.s(ALNUM, 40)
    cases.append(T("json_text", json.dumps({"next": f"https://api.example.com/v1/items?page=3&access_token={v}"}), [v]))
    v = g.s(ALNUM, 40)
    cases.append(T("url_query", f"https://api.example.com/v1/items?token={v}#section", [v]))
    v = g.s(ALNUM, 40)
    cases.append(R("structured", ["bad request"], [v], structured={"url": f"https://api.example.com/v1?api_key={v}"}))
    v = g.s(ALNUM, 40)
    cases.append(T("url_query", f"https://api.example.com/v1?redirect=%2Fhome%3Ftoken%3D{v}", [v], "a secret inside an encoded nested URL"))
    return cases


@family("dsn_password", "ADO.NET and ODBC connection string syntax, libpq keyword/value connection strings, Oracle Easy Connect, Go MySQL driver DSN, JDBC URLs, Kafka JAAS configuration")
def _(g):
    cases = []
    pw = g.password()
    cases.append(T("connection_string", f"Server=tcp:acme.database.windows.net,1433;Initial Catalog=app;User ID=app;Password={pw};Encrypt=True;", [pw]))
    pw = g.password()
    cases.append(T("connection_string", f"Data Source=db01;Initial Catalog=app;User Id=sa;Pwd={pw};", [pw]))
    pw = g.password()
    cases.append(T("connection_string", f"host=db.internal port=5432 dbname=app user=app password={pw} sslmode=require", [pw], "libpq keyword/value"))
    pw = g.s(ALNUM, 8) + ";" + g.s(ALNUM, 8)
    cases.append(T("connection_string", f'Server=db;Database=app;User Id=app;Password="{pw}";', [pw], "a quoted password containing ;"))
    pw = g.password()
    cases.append(T("connection_string", f"sqlplus app/{pw}@//db.example:1521/ORCLPDB1", [pw], "Oracle user/password@"))
    pw = g.password()
    cases.append(T("connection_string", f"app:{pw}@tcp(127.0.0.1:3306)/app?parseTime=true", [pw], "Go MySQL DSN without a scheme"))
    pw = g.password()
    cases.append(T("connection_string", f"jdbc:sqlserver://db.example:1433;databaseName=app;user=app;password={pw};", [pw]))
    pw = g.password()
    cases.append(T("connection_string", f"jdbc:postgresql://db.example:5432/app?user=app&password={pw}&ssl=true", [pw]))
    pw = g.password()
    cases.append(T("connection_string", f"Driver={{ODBC Driver 18 for SQL Server}};Server=db;UID=app;PWD={pw};", [pw]))
    pw = g.password()
    cases.append(T("jaas", f'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="app" password="{pw}";', [pw]))
    pw = g.password()
    cases.append(T("connection_string", f"mongodb://app:{pw}@mongo-0.example:27017,mongo-1.example:27017/app?replicaSet=rs0", [pw]))
    pw = g.password()
    cases.append(T("json_text", json.dumps({"ConnectionStrings": {"Default": f"Server=db;Database=app;User Id=app;Password={pw};"}}), [pw], "appsettings.json"))
    pw = g.password()
    cases.append(T("connection_string", f"Provider=MSOLEDBSQL;Data Source=db;User ID=app;PASSWORD={pw}", [pw], "upper-case keyword"))
    pw = g.password()
    cases.append(R("structured", ["cannot connect"], [pw], structured={"db": {"dsn": f"host=db user=app password={pw}"}}))
    pw = g.password()
    cases.append(T("connection_string", f"Server=db;Database=app;Uid=app;Password = {pw} ;", [pw], "spaces around ="))
    return cases


@family("cli_password_flag", "The manuals of sshpass, mysql, curl, docker login, redis-cli, htpasswd, openssl (pass: arguments), ldapsearch, sqlcmd, smbclient, zip/7z, psql, kubectl")
def _(g):
    cases = []
    commands = [
        ("sshpass -p '{pw}' ssh deploy@host", "sshpass -p"),
        ("sshpass -p{pw} scp a.tar host:/tmp", "sshpass -p glued"),
        ("mysql -u root -p{pw} app", "mysql -pPASSWORD"),
        ("mysqldump -uroot -p'{pw}' --all-databases", "quoted -p"),
        ("curl -u admin:{pw} https://jenkins.example/api/json", "curl -u user:pw"),
        ("curl --user admin:{pw} https://nexus.example/service/rest", "curl --user"),
        ("docker login -u acme -p {pw} registry.example.com", "docker login -p"),
        ("docker login --password {pw} --username acme", "docker login --password"),
        ("redis-cli -h cache -a {pw} ping", "redis-cli -a"),
        ("htpasswd -b -c .htpasswd admin {pw}", "htpasswd -b"),
        ("openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:{pw}", "openssl pass:"),
        ("openssl rsa -in k.pem -passin pass:{pw}", "openssl -passin"),
        ("ldapsearch -x -D cn=admin,dc=example,dc=org -w {pw} -b dc=example,dc=org", "ldapsearch -w"),
        ("sqlcmd -S db -U sa -P {pw} -Q 'SELECT 1'", "sqlcmd -P"),
        ("smbclient //fs/share -U 'corp\\ann%{pw}'", "smbclient user%password"),
        ("zip -P {pw} backup.zip db.sql", "zip -P"),
        ("7z a -p{pw} backup.7z db.sql", "7z -p"),
        ("kubectl --token={pw} get pods", "kubectl --token="),
        ("az login --service-principal -u http://app -p {pw} --tenant t", "az login -p"),
        ("wget --http-user=ann --http-password={pw} https://files.example/x", "wget --http-password="),
        ("git -c http.extraHeader='Authorization: Basic {pw}' clone https://git.example/a", "git -c extraHeader"),
        ("psql 'postgresql://app:{pw}@db/app' -c 'select 1'", "psql URI"),
        ("java -Djavax.net.ssl.keyStorePassword={pw} -jar app.jar", "a JVM system property"),
        ("vault login -method=userpass username=ann password={pw}", "vault login password="),
        ("mongosh 'mongodb://db' -u app -p {pw}", "mongosh -p"),
        ("unzip -P {pw} backup.zip", "unzip -P"),
        ("net use Z: \\\\fs\\share /user:corp\\ann {pw}", "net use"),
    ]
    for template, note in commands:
        pw = g.password(14, ALNUM + "-_.~")
        cases.append(T("cli_argument", "$ " + template.format(pw=pw), [pw], note))
    pw = g.password(14, ALNUM)
    cases.append(T("log_line", f'{g.timestamp()} INFO exec: ["sshpass", "-p", "{pw}", "ssh", "host"]', [pw], "argv logged as a JSON array"))
    pw = g.password(14, ALNUM)
    cases.append(R("structured", ["command failed"], [pw], structured={"argv": ["mysql", "-u", "root", f"-p{pw}", "app"]}))
    return cases


# --- files of key=value -----------------------------------------------------------------


SECRET_NAMES = [
    "PASSWORD",
    "DB_PASSWORD",
    "API_KEY",
    "SECRET_KEY",
    "AUTH_TOKEN",
    "CLIENT_SECRET",
    "PRIVATE_KEY",
    "ACCESS_TOKEN",
    "DB_PASS",
    "PASS",
    "PASSWD",
    "MYSQL_ROOT_PASSWORD",
    "SESSION_SECRET",
    "ENCRYPTION_KEY",
    "SIGNING_KEY",
    "MASTER_KEY",
    "JWT_SECRET",
    "WEBHOOK_SECRET",
    "API_KEYS",
    "SECRETS",
    "ACCESSTOKEN",
    "APIKEY",
    "PGPASSWORD",
    "REDIS_AUTH",
]


@family("env_assignment", ".env files (dotenv), POSIX shell assignment and export, Dockerfile ENV, PowerShell $env:, Windows set, docker-compose environment lists")
def _(g):
    cases = []
    for name in SECRET_NAMES:
        v = g.password(20, ALNUM)
        form = g.pick(["{n}={v}", 'export {n}="{v}"', "{n}='{v}'", "{n} = {v}"])
        cases.append(T("env_assignment", form.format(n=name, v=v), [v], name))
    v = g.password(20, ALNUM)
    cases.append(T("dockerfile", f"FROM node:20\nENV API_TOKEN {v}\nRUN npm ci", [v], "Dockerfile ENV name value (space form)"))
    v = g.password(20, ALNUM)
    cases.append(T("powershell", f'$env:AZURE_CLIENT_SECRET = "{v}"', [v]))
    v = g.password(20, ALNUM)
    cases.append(T("cmd", f"set DB_PASSWORD={v}", [v]))
    v = g.password(20, ALNUM)
    cases.append(T("yaml_list", f"services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD={v}\n", [v]))
    v = g.password(20, ALNUM)
    cases.append(T("env_dump", f"HOME=/root\nPATH=/usr/bin:/bin\nSTRIPE_KEY={v}\nTERM=xterm", [v], "an env dump; the name has no secret word but KEY"))
    v1, v2 = g.password(20, ALNUM), g.password(20, ALNUM)
    cases.append(T("env_assignment", f"API_KEYS={v1},{v2}", [v1, v2], "a plural name and a list"))
    v = g.password(20, ALNUM)
    cases.append(T("env_assignment", f"DATABASE_PASSWORD=\"{v}\" # rotated 2024-05", [v]))
    v = g.password(20, ALNUM)
    cases.append(T("systemd", f"[Service]\nEnvironment=\"API_TOKEN={v}\"\n", [v], "systemd unit Environment="))
    v = g.password(20, ALNUM)
    cases.append(R("structured", ["spawn failed"], [v], structured={"env": {"HOME": "/root", "DB_PASS": v}}))
    v = g.password(20, ALNUM)
    cases.append(R("structured", ["spawn failed"], [v], structured={"env": [{"name": "API_TOKEN", "value": v}]}, note="Kubernetes-style env list"))
    v = g.password(20, ALNUM)
    k = split_point(v)
    cases.append(R("split_blocks", [f"API_KEY={v[:k]}", f"{v[k:]}\nDEBUG=1"], [v]))
    return cases


@family("yaml_value", "YAML 1.2 (block and flow mappings, plain multi-line scalars, block scalars, anchors), Kubernetes Secret and env manifests")
def _(g):
    cases = []
    v = g.password()
    cases.append(T("yaml_value", f"database:\n  host: db\n  password: {v}\n", [v]))
    v = g.password()
    cases.append(T("yaml_value", f'api:\n  key: "{v}"\n', [v], "the name is just 'key' under 'api'"))
    v = g.password()
    cases.append(T("yaml_next_line", f"database:\n  password:\n    {v}\n", [v], "the value on the next line"))
    v = g.password()
    cases.append(T("yaml_block", f"token: |\n  {v}\n", [v], "block scalar"))
    v = g.password()
    cases.append(T("yaml_block", f"client_secret: >-\n  {v}\n", [v], "folded block scalar"))
    v = base64.b64encode(g.password().encode()).decode()
    cases.append(T("k8s_secret", f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  username: YXBw\n  password: {v}\n", [v], "base64 data of a Secret"))
    v = g.password()
    cases.append(T("k8s_env", f"env:\n  - name: API_TOKEN\n    value: {v}\n  - name: LOG_LEVEL\n    value: info\n", [v], "name/value pairs"))
    v = g.password()
    cases.append(T("k8s_env", f"env:\n  - name: DB_PASSWORD\n    value: \"{v}\"\n", [v]))
    v = g.password()
    cases.append(T("yaml_value", f"secrets:\n  - {v}\n", [v], "a list under a plural name"))
    v = g.password()
    cases.append(T("yaml_anchor", f"defaults: &defaults\n  adminPassword: {v}\nprod:\n  <<: *defaults\n", [v]))
    v = g.password()
    cases.append(T("yaml_flow", f"auth: {{user: ann, pass: {v}}}\n", [v], "flow mapping, short name pass"))
    v = g.password()
    cases.append(T("yaml_value", f"smtp:\n  user: mailer\n  passwd: '{v}'\n", [v]))
    v = g.password()
    cases.append(T("yaml_value", f"credentials:\n  accesstoken: {v}\n", [v], "joined words"))
    v = g.password()
    cases.append(R("structured", ["config invalid"], [v], structured={"config": "database:\n  password: " + v + "\n"}, note="YAML text inside a structured string"))
    v = g.password()
    cases.append(R("split_blocks", ["database:\n  password:", f"    {v}\n  host: db"], [v]))
    return cases


@family("ini_value", "INI files (Python configparser, Git config, MySQL option files); the PostgreSQL password file (.pgpass)")
def _(g):
    cases = []
    v = g.password()
    cases.append(T("ini", f"[database]\nhost = db\npassword = {v}\n", [v]))
    v = g.password()
    cases.append(T("ini", f"[smtp]\nuser=mailer\npass={v}\n", [v], "short name pass"))
    v = g.password()
    cases.append(T("ini", f"[client]\nuser = root\npassword = \"{v}\"\n", [v], "~/.my.cnf"))
    v = g.password()
    cases.append(T("pgpass", f"db.internal:5432:app:app:{v}\n", [v], ".pgpass host:port:db:user:password"))
    v = g.password()
    cases.append(T("ini", f"[credential]\n\thelper = store\n[http]\n\textraHeader = Authorization: Bearer {v}\n", [v], "git config"))
    v = g.password()
    cases.append(T("ini", f"[api]\nkey : {v}\n", [v], "the name is just 'key'"))
    v = g.password()
    cases.append(T("ini", f"[oauth]\nclientsecret = {v}\n", [v], "joined words"))
    v = g.password()
    cases.append(T("ini", f"[ldap]\nbind_pw = {v}\n", [v], "pw"))
    return cases


@family("toml_value", "TOML 1.0 (key/value pairs, inline tables), Cargo credentials.toml, Streamlit secrets.toml")
def _(g):
    cases = []
    v = "cio" + g.s(ALNUM, 32)
    cases.append(T("toml", f'[registry]\ntoken = "{v}"\n', [v], "~/.cargo/credentials.toml"))
    v = g.password()
    cases.append(T("toml", f'[database]\nurl = "postgres://db/app"\npassword = "{v}"\n', [v]))
    v = g.password()
    cases.append(T("toml", f'db = {{ user = "app", password = "{v}" }}\n', [v], "inline table"))
    v = g.password()
    cases.append(T("toml", f"api-key = '{v}'\n", [v], "literal string"))
    v = g.password()
    cases.append(T("toml", f'[connections.snowflake]\naccount = "acme"\nuser = "app"\npwd = "{v}"\n', [v]))
    v = g.password()
    cases.append(T("toml", f'[auth]\nsigning_key = """\n{v}\n"""\n', [v], "multi-line string"))
    return cases


@family("properties_value", "Java .properties files (java.util.Properties), Spring Boot application.properties")
def _(g):
    cases = []
    v = g.password()
    cases.append(T("properties", f"spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password={v}\n", [v]))
    v = g.password()
    cases.append(T("properties", f"db.password: {v}\n", [v]))
    v = g.password()
    cases.append(T("properties", f"keystore.pass={v}\n", [v], "short name pass"))
    v = g.password()
    cases.append(T("properties", f"mail.smtp.password = {v}\n", [v]))
    v = g.password()
    cases.append(T("properties", f"app.jwt.secret {v}\n", [v], "the space separator"))
    v = g.password()
    cases.append(T("properties", f"oauth.client-secret={v}\n", [v]))
    return cases


@family("xml_value", "XML element and attribute forms: Maven settings.xml, NuGet.config, .NET appSettings, Tomcat tomcat-users.xml, Spring XML, FileZilla sitemanager.xml")
def _(g):
    cases = []
    v = g.password()
    cases.append(T("xml_element", f"<servers>\n  <server>\n    <id>nexus</id>\n    <username>deploy</username>\n    <password>{v}</password>\n  </server>\n</servers>", [v], "Maven settings.xml"))
    v = g.password()
    cases.append(T("xml_attribute", f'<appSettings>\n  <add key="ApiKey" value="{v}" />\n</appSettings>', [v], ".NET key/value attributes"))
    v = g.password()
    cases.append(T("xml_attribute", f'<packageSourceCredentials><feed><add key="Username" value="ci" /><add key="ClearTextPassword" value="{v}" /></feed></packageSourceCredentials>', [v], "NuGet.config"))
    v = g.password()
    cases.append(T("xml_attribute", f'<user username="admin" password="{v}" roles="manager-gui"/>', [v], "tomcat-users.xml"))
    v = g.password()
    cases.append(T("xml_element", f"<Credentials><AccessKey>{aws_key_id(g)}</AccessKey><SecretKey>{v}</SecretKey></Credentials>", [v]))
    v = g.password()
    cases.append(T("xml_element", f'<property name="password" value="{v}"/>', [v], "Spring bean property"))
    v = g.password()
    cases.append(T("xml_element", f"<entry key=\"api.token\">{v}</entry>", [v], "properties XML"))
    v = g.password()
    cases.append(T("xml_element", f"<ClientSecret>{v}</ClientSecret>", [v]))
    v = g.password()
    b = base64.b64encode(v.encode()).decode()
    cases.append(T("xml_element", f'<Server>\n  <Host>ftp.example.com</Host>\n  <User>deploy</User>\n  <Pass encoding="base64">{b}</Pass>\n</Server>', [b], "FileZilla sitemanager.xml: a short name, an attribute"))
    return cases


@family("netrc_password", "The .netrc file format (GNU inetutils ftp manual: machine, login, password)")
def _(g):
    cases = []
    v = g.password()
    cases.append(T("netrc", f"machine api.heroku.com\n  login ann@example.com\n  password {v}\n", [v]))
    v = g.password()
    cases.append(T("netrc", f"machine ftp.example.com login anonymous password {v}", [v], "one line"))
    v = g.password()
    cases.append(T("netrc", f"default login ann password {v}\n", [v]))
    v = g.password()
    cases.append(T("netrc", f"machine git.example.com\n\tlogin ci\n\tpassword\t{v}\n", [v], "tab separated"))
    return cases


@family("markdown_table", "GitHub Flavored Markdown tables (GFM spec, 4.10 Tables): a row whose first cell names a secret and whose next cell holds it")
def _(g):
    cases = []
    v = g.password()
    cases.append(T("markdown_table", f"| Field | Value |\n|---|---|\n| host | db.internal |\n| password | {v} |\n", [v]))
    k = g.s(HEX, 32)
    cases.append(T("markdown_table", f"| Name | Value |\n| --- | --- |\n| API Key | `{k}` |\n| Region | eu-west-1 |\n", [k], "a code span, a name of two words"))
    v = g.password()
    cases.append(T("markdown_table", f"|setting|value|\n|-|-|\n|client_secret|{v}|\n", [v], "no blanks around the bars"))
    v = g.password(24)
    cases.append(T("markdown_table", f"Created the service account:\n\n| key | value |\n|:---|:---|\n| user | svc-deploy |\n| Access Token | {v} |\n", [v]))
    v = g.password()
    cases.append(T("markdown_table", f"| **Username:** | admin |\n| **Password:** | {v} |\n", [v], "names that end in a colon"))
    return cases


@family("table_column", "RFC 4180 CSV with a header line, tab-separated values, GFM tables with a header row: a column whose header names a secret (database query results, credential exports)")
def _(g):
    cases = []
    a, b = g.password(), g.password()
    cases.append(T("csv", f"id,username,password,created_at\n1,ann,{a},2024-05-17\n2,bob,{b},2024-05-18\n", [a, b], "a users table exported as CSV"))
    k = g.s(ALNUM, 32)
    cases.append(T("markdown_table", f"Query returned 1 row:\n\n| id | name | api_key |\n|----|------|---------|\n| 7 | billing | {k} |\n", [k], "a query tool's result as a markdown table"))
    t = g.password(20)
    cases.append(T("tsv", f"service\tregion\tsecret\nsearch\teu-west-1\t{t}\n", [t]))
    return cases


@family("prose_value", "English prose that names a secret and links it to its value with is/was/to ('your temporary password is ...')")
def _(g):
    cases = []
    v = g.password()
    cases.append(T("prose", f"Your temporary password is {v} and must be changed at first sign-in.", [v]))
    v = g.password(20)
    cases.append(T("prose", f"The API token was: {v}", [v]))
    v = g.password()
    cases.append(T("prose", f"Reset done; set the secret to {v} in the dashboard.", [v]))
    v = g.password()
    cases.append(T("prose", f"error: login failed because the password was {v}", [v]))
    return cases


@family("proxy_userinfo", "curl --proxy and the HTTP_PROXY/HTTPS_PROXY convention (curl manual, ENVIRONMENT): [user:password@]host:port written without a scheme")
def _(g):
    cases = []
    v = g.password()
    cases.append(T("env_assignment", f"HTTPS_PROXY=svc-build:{v}@proxy.corp.example:3128", [v]))
    v = g.password()
    cases.append(T("log_line", f"2024-05-17T10:00:00Z WARN fetch via proxy deploy:{v}@10.20.0.5:8080 timed out", [v]))
    v = g.password()
    cases.append(T("prose", f"curl --proxy ann:{v}@squid.internal:3128 https://api.example.com/v1/items", [v]))
    v = g.password()
    cases.append(T("json_text", json.dumps({"proxy": f"ci:{v}@egress.example.net:1080"}), [v]))
    return cases


@family("json_secret_member", "JSON (RFC 8259) members whose key names a secret; HAR 1.2 name/value pairs; AWS ECS and CloudFormation Name/Value environment entries")
def _(g):
    cases = []
    keys = [
        "password",
        "apiKey",
        "client_secret",
        "accessToken",
        "accesstoken",
        "ACCESSTOKEN",
        "secretkey",
        "privatekey",
        "clientsecret",
        "refreshtoken",
        "authtoken",
        "apitoken",
        "sessiontoken",
        "api_keys",
        "passwords",
        "tokens",
        "secrets",
        "pass",
        "pw",
        "passcode",
        "x-api-key",
        "signingKey",
        "encryption_key",
        "master_key",
        "auth.token",
        "AUTH-TOKEN",
        "dbPassword",
        "adminPwd",
        "SecretAccessKey",
        "webhookSecret",
    ]
    for key in keys:
        v = g.password(20, ALNUM)
        value = [v] if key in ("api_keys", "passwords", "tokens", "secrets") else v
        cases.append(T("json_text", json.dumps({"user": "ann", key: value}), [v], key))
    v = g.password(20, ALNUM)
    cases.append(T("json_text", json.dumps({"name": "X-Api-Key", "value": v}), [v], "name/value pair"))
    v = g.password(20, ALNUM)
    cases.append(T("json_text", json.dumps({"Name": "DB_PASSWORD", "Value": v}), [v], "ECS/CloudFormation Name/Value"))
    v = g.password(20, ALNUM)
    cases.append(T("json_text", json.dumps({"key": "client_secret", "value": v}), [v], "key/value pair"))
    v = g.password(20, ALNUM)
    cases.append(T("json_text", json.dumps({"credentials": {"user": "ann", "secret": v}}, indent=2), [v], "pretty-printed"))
    v = g.password(20, ALNUM)
    cases.append(T("json_text", '{"password" :\n    "' + v + '"}', [v], "value on the next line"))
    v = g.password(20, ALNUM)
    cases.append(T("json5", f"{{password: '{v}'}}", [v], "unquoted key, single quotes (JSON5/JS)"))
    v = g.password(20, ALNUM)
    cases.append(T("json_escaped", json.dumps(json.dumps(json.dumps({"password": v}))), [v], "escaped three times"))
    v = g.password(20, ALNUM)
    cases.append(T("python_repr", f"{{'user': 'ann', 'password': '{v}'}}", [v], "a Python dict repr"))
    v = g.password(20, ALNUM)
    cases.append(T("ruby_inspect", f'{{:user=>"ann", :password=>"{v}"}}', [v], "a Ruby hash inspect"))
    v = g.password(20, ALNUM)
    cases.append(T("json_text", json.dumps({"pin": 0, "password": v}, separators=(",", ":")), [v], "compact"))
    # structured: the engine sees these as JSON values
    skeys = ["password", "apiKey", "accesstoken", "secretkey", "privatekey", "clientsecret", "api_keys", "passwords", "pass", "pw", "signingKey", "encryption_key", "dbPassword", "auth.token"]
    for key in skeys:
        v = g.password(20, ALNUM)
        value = [v] if key in ("api_keys", "passwords") else v
        cases.append(R("structured", ["invalid configuration"], [v], structured={"error": {"kind": "invalid_param", "message": "invalid configuration"}, "config": {key: value}}, note=key))
    v = g.password(20, ALNUM)
    cases.append(R("structured", ["invalid configuration"], [v], structured={"headers": [{"name": "X-Api-Key", "value": v}]}, note="name/value pair"))
    v = g.password(20, ALNUM)
    cases.append(R("structured", ["invalid configuration"], [v], structured={"environment": [{"Name": "DB_PASSWORD", "Value": v}]}, note="Name/Value pair"))
    v = g.password(20, ALNUM)
    cases.append(R("structured", ["invalid configuration"], [v], structured={"body": json.dumps({"password": v})}, note="JSON text in a structured string"))
    v = g.password(20, ALNUM)
    k = split_point(v)
    cases.append(R("split_blocks", ['{"user": "ann", "password": "' + v[:k], v[k:] + '"}'], [v]))
    return cases


@family("code_assignment", "Assignment syntax of PHP and Ruby (=>), Go (:=), TypeScript, Kotlin, Rust, Swift and Python (typed), Java and C# fields, keyword arguments")
def _(g):
    cases = []
    templates = [
        ("after_arrow", "'password' => '{v}',", "PHP array =>"),
        ("after_arrow", '"api_key" => "{v}"', "Ruby hash rocket"),
        ("after_walrus", "password := \"{v}\"", "Go :="),
        ("after_walrus", "apiKey := os.Getenv(\"X\") + \"{v}\"", "Go := with an expression"),
        ("typed_assignment", 'const apiKey: string = "{v}";', "TypeScript"),
        ("typed_assignment", 'let token: &str = "{v}";', "Rust"),
        ("typed_assignment", 'val clientSecret: String = "{v}"', "Kotlin"),
        ("typed_assignment", 'password: str = "{v}"', "Python annotation"),
        ("typed_assignment", 'let secret: String = "{v}"', "Swift"),
        ("typed_assignment", 'private static final String PASSWORD = "{v}";', "Java constant"),
        ("typed_assignment", 'private const string ApiKey = "{v}";', "C# constant"),
        ("typed_assignment", 'var apiKey string = "{v}"', "Go var"),
        ("typed_assignment", "String pwd = \"{v}\";", "Java local"),
        ("argument", 'conn = connect(host="db", user="app", password="{v}")', "keyword argument"),
        ("argument", 'login("ann", "{v}")', "positional argument"),
        ("argument", 'define("DB_PASSWORD", "{v}");', "PHP define"),
        ("argument", '"password", "{v}"', "a pair in a list"),
        ("assignment", "$password = '{v}';", "PHP variable"),
        ("assignment", 'set password "{v}"', "Tcl/expect set"),
        ("assignment", 'self.token = "{v}"', "attribute"),
        ("assignment", 'config["secret"] = "{v}"', "index"),
        ("assignment", "{{ password = \"{v}\" }}", "Lua/HCL table"),
        ("assignment", 'ENV["API_KEY"] ||= "{v}"', "Ruby ||="),
        ("assignment", "export const SECRET = `{v}`;", "template literal"),
    ]
    for placement, template, note in templates:
        v = g.password(20, ALNUM)
        cases.append(T(placement, template.format(v=v), [v], note))
    return cases


@family("named_high_entropy", "Framework secret settings: Django SECRET_KEY, Rails secret_key_base and master key, Laravel APP_KEY, NextAuth NEXTAUTH_SECRET, Airflow Fernet keys; Cloudflare, Okta, Cohere and Algolia keys, which have no distinctive prefix")
def _(g):
    cases = []
    items = [
        ("SECRET_KEY", lambda: g.s(LOWER + DIGITS + "!@#%^&*(-_=+)", 50), "Django"),
        ("secret_key_base", lambda: g.s(HEX, 128), "Rails"),
        ("APP_KEY", lambda: "base64:" + g.b64(32), "Laravel"),
        ("NEXTAUTH_SECRET", lambda: g.b64(32), "NextAuth"),
        ("CLOUDFLARE_API_TOKEN", lambda: g.s(B64URL, 40), "Cloudflare"),
        ("COHERE_API_KEY", lambda: g.s(ALNUM, 40), "Cohere"),
        ("OKTA_API_TOKEN", lambda: "00" + g.s(B64URL, 40), "Okta"),
        ("JWT_SIGNING_KEY", lambda: g.b64(48), "no secret word: signing key"),
        ("HMAC_KEY", lambda: g.s(HEX, 64), "HMAC"),
        ("ENCRYPTION_KEY", lambda: g.b64(32), "encryption"),
        ("COOKIE_SECRET", lambda: g.b64(32), "cookie"),
        ("MASTER_KEY", lambda: g.s(HEX, 32), "Rails master.key"),
        ("FERNET_KEY", lambda: g.b64(32, urlsafe=True), "Airflow"),
        ("MEILI_MASTER_KEY", lambda: g.s(B64URL, 32), "Meilisearch"),
        ("ALGOLIA_ADMIN_KEY", lambda: g.s(HEX, 32), "Algolia"),
        ("MAPBOX_SECRET", lambda: "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + g.s(B64URL, 20) + "In0." + g.s(B64URL, 22), "Mapbox secret token"),
    ]
    forms = [("env_assignment", "{n}={v}"), ("yaml_value", '{n}: "{v}"'), ("json_text", '{{"{n}": "{v}"}}')]
    for name, make, note in items:
        v = make()
        placement, form = g.pick(forms)
        cases.append(T(placement, form.format(n=name, v=v), [v], note))
    v = g.s(HEX, 64)
    cases.append(T("prose", f"the webhook signing key is {v}", [v], "named only in prose"))
    v = g.b64(32)
    cases.append(T("yaml_value", f"encryption:\n  key: {v}\n", [v]))
    return cases


# --- evasions ---------------------------------------------------------------------------


def evasion_sources(g):
    """(family, secret, text template) pairs the evasions are applied to."""
    pw = g.password(20, ALNUM)
    return [
        ("github_token", github_style(g, "ghp_"), "token {s} rejected"),
        ("openai_key", openai_key(g, "proj"), "OPENAI_API_KEY={s}"),
        ("aws_access_key_id", aws_key_id(g), "key id {s}"),
        ("anthropic_key", anthropic_key(g), "x-api-key: {s}"),
        ("slack_token", slack_bot(g), "bot {s}"),
        ("stripe_secret", stripe(g, "sk_live_"), "stripe {s}"),
        ("env_assignment", pw, "DB_PASSWORD={s}"),
        ("authorization_header", g.s(B64URL, 40), "Authorization: Bearer {s}"),
        ("jwt", jwt(g), "token {s}"),
        ("gitlab_token", "glpat-" + g.s(B64URL, 20), "PRIVATE-TOKEN: {s}"),
    ]


def sprinkle(s, mark, every):
    return "".join(c + (mark if (i + 1) % every == 0 and i + 1 < len(s) else "") for i, c in enumerate(s))


def fullwidth(s, only_letters_prefix=None):
    def fw(c):
        return chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c

    if only_letters_prefix is None:
        return "".join(fw(c) for c in s)
    return "".join(fw(c) for c in s[:only_letters_prefix]) + s[only_letters_prefix:]


def evasion_family(name, source, transform, note):
    @family(name, source)
    def _(g):
        cases = []
        for base, secret, template in evasion_sources(g):
            planted = transform(g, secret)
            cases.append(T("evasion", template.format(s=planted), [secret], f"{base}: {note}"))
        return cases


evasion_family("evasion_soft_hyphen", "Unicode: U+00AD SOFT HYPHEN (default ignorable, invisible)", lambda g, s: sprinkle(s, "\u00ad", 5), "a soft hyphen after every 5th character")
evasion_family("evasion_zero_width", "Unicode: U+200B ZERO WIDTH SPACE, U+200C/U+200D joiners, U+2060 WORD JOINER, U+FEFF", lambda g, s: sprinkle(s, g.pick(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]), 4), "a zero-width character after every 4th character")
evasion_family("evasion_cgj", "Unicode: U+034F COMBINING GRAPHEME JOINER (default ignorable)", lambda g, s: sprinkle(s, "\u034f", 6), "a combining grapheme joiner after every 6th character")
evasion_family("evasion_tag_chars", "Unicode: Tags block U+E0000-U+E007F (invisible tag characters)", lambda g, s: s[:6] + "\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065" + s[6:], "tag characters spelling 'ignore' inserted after 6 characters")
evasion_family("evasion_fullwidth", "Unicode: Halfwidth and Fullwidth Forms U+FF01-U+FF5E (NFKC folds them to ASCII)", lambda g, s: fullwidth(s) if g.int(0, 1) else fullwidth(s, 8), "full-width letters (the whole secret, or its first 8 characters)")
evasion_family("evasion_variation_selector", "Unicode: U+FE00-U+FE0F VARIATION SELECTORS (default ignorable)", lambda g, s: sprinkle(s, "\ufe0f", 7), "a variation selector after every 7th character")


# --- negatives --------------------------------------------------------------------------


def negatives():
    g = Gen("negatives")
    out = []

    def N(cls, text, note=None):
        case = {"class": cls, "mode": "text", "text": text}
        if note:
            case["note"] = note
        out.append(case)

    def NS(cls, blocks, structured, note=None):
        case = {"class": cls, "mode": "report", "blocks": blocks, "structured": structured}
        if note:
            case["note"] = note
        out.append(case)

    # placeholders
    for text in [
        "API_KEY=<your-api-key>",
        "export GITHUB_TOKEN=<your-token>",
        "password: xxx",
        "password: xxxxxxxx",
        "DB_PASSWORD=changeme",
        "token: ${TOKEN}",
        '"password": "${DB_PASSWORD}"',
        "Authorization: Bearer <token>",
        "Authorization: Bearer $TOKEN",
        "Authorization: Bearer ${ACCESS_TOKEN}",
        "api_key: YOUR_API_KEY",
        "password: ********",
        "token: {{ .Values.token }}",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "set API_KEY=%API_KEY%",
        "TOKEN=$(cat /run/secrets/token)",
        "password: null",
        'password: ""',
        "password=",
        "token: REPLACE_ME",
        "OPENAI_API_KEY=sk-...",
        "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX",
        'password: "<password>"',
        'secret: "your-secret-here"',
        "API_TOKEN=dummy",
        '"password": "{{password}}"',
        "curl -u user:password https://api.example.com",
        "https://user:pass@example.com",
        "postgres://USER:PASSWORD@HOST:5432/DB",
        "client_secret=<client-secret>",
        "X-Api-Key: <api-key>",
        "sk_live_...",
        "Bearer YOUR_TOKEN_HERE",
        "password: !vault |",
        "apiKey: process.env.OPENAI_API_KEY",
        "api_key=settings.API_KEY",
        'password = os.environ["DB_PASSWORD"]',
        "token = os.getenv('TOKEN')",
        "PASSWORD_FILE=/run/secrets/db_password",
        "token: !Ref ApiToken",
        "secret: vault:secret/data/app#password",
    ]:
        N("placeholder", text)
    # already redacted
    for text in [
        "[REDACTED:api_key]",
        "password=[REDACTED:secret_field]",
        "Authorization: Bearer [REDACTED:authorization]",
        "token: [REDACTED]",
        "password: ***",
        "password: <redacted>",
        '"apiKey": "[FILTERED]"',
        "key ending in ...a1b2",
        "sk-****************************abcd",
        "ghp_****",
        "https://[REDACTED:url_credentials]@example.com/x",
        "Cookie: [REDACTED:cookie]",
    ]:
        N("already_redacted", text)
    # uuids
    for _ in range(6):
        u = g.uuid()
        N("uuid", g.pick([f"request {u} failed", f"x-request-id: {u}", f'{{"id": "{u}", "status": "queued"}}', f"https://api.example.com/v1/jobs/{u}", f"Idempotency-Key: {u}", f'{{"client_id": "{u}"}}']))
    N("uuid", f"trace_id={g.s(HEX, 32)} span_id={g.s(HEX, 16)}")
    N("uuid", f'{{"tenant": "{g.uuid()}", "subscription": "{g.uuid()}"}}')
    # git shas
    for _ in range(3):
        sha = g.s(HEX, 40)
        N("git_sha", g.pick([f"commit {sha}\nAuthor: Ann <ann@example.com>", f'{{"sha": "{sha}", "ref": "refs/heads/main"}}', f"HEAD is now at {sha[:7]} Fix the build"]))
    N("git_sha", f"Merge: {g.s(HEX, 7)} {g.s(HEX, 7)}")
    N("git_sha", f"https://github.com/acme/app/commit/{g.s(HEX, 40)}")
    N("git_sha", f"{g.s(HEX, 40)} refs/tags/v1.2.3")
    # sha256 digests
    for text in [
        f"image: ghcr.io/acme/app@sha256:{g.s(HEX, 64)}",
        f"{g.s(HEX, 64)}  release.tar.gz",
        f"SHA256 (release.tar.gz) = {g.s(HEX, 64)}",
        f'"checksum": "sha256:{g.s(HEX, 64)}"',
        f"Digest: sha-256={g.b64(32)}",
        f'ETag: "{g.s(HEX, 32)}"',
        f"sha1: {g.s(HEX, 40)}",
        f"md5sum {g.s(HEX, 32)}",
    ]:
        N("digest", text)
    # SRI / npm integrity
    for text in [
        f'"integrity": "sha512-{g.b64(64)}"',
        f'<script src="https://cdn.example.com/lib.js" integrity="sha384-{g.b64(48)}" crossorigin="anonymous"></script>',
        f'  integrity sha512-{g.b64(64)}',
        f'  resolved "https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#{g.s(HEX, 40)}"',
        f'"integrity": "sha1-{g.b64(20)}"',
    ]:
        N("sri_integrity", text)
    # public keys and certificates
    pub = base64.b64encode(bytes.fromhex("30820122300d06092a864886f70d01010105000382010f00") + g.raw(270)).decode()
    N("public_key", "-----BEGIN PUBLIC KEY-----\n" + "\n".join(lines(pub, 64)) + "\n-----END PUBLIC KEY-----")
    rsapub = base64.b64encode(bytes.fromhex("3082010a0282010100") + g.raw(260)).decode()
    N("public_key", "-----BEGIN RSA PUBLIC KEY-----\n" + "\n".join(lines(rsapub, 64)) + "\n-----END RSA PUBLIC KEY-----")
    cert = base64.b64encode(bytes.fromhex("308203") + g.raw(700)).decode()
    N("certificate", "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines(cert, 64)) + "\n-----END CERTIFICATE-----")
    N("certificate", "server chain:\n-----BEGIN CERTIFICATE-----\n" + "\n".join(lines(base64.b64encode(g.raw(600)).decode(), 64)) + "\n-----END CERTIFICATE-----\n")
    csr = base64.b64encode(g.raw(500)).decode()
    N("certificate", "-----BEGIN CERTIFICATE REQUEST-----\n" + "\n".join(lines(csr, 64)) + "\n-----END CERTIFICATE REQUEST-----")
    N("certificate", json.dumps({"ca": "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines(base64.b64encode(g.raw(400)).decode(), 64)) + "\n-----END CERTIFICATE-----\n"}))
    pgp = base64.b64encode(b"\x99\x01\x0d\x04" + g.raw(500)).decode()
    N("public_key", "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + "\n".join(lines(pgp, 64)) + "\n=" + g.s(B64, 4) + "\n-----END PGP PUBLIC KEY BLOCK-----")
    sig = base64.b64encode(g.raw(300)).decode()
    N("public_key", "-----BEGIN PGP SIGNATURE-----\n\n" + "\n".join(lines(sig, 64)) + "\n=" + g.s(B64, 4) + "\n-----END PGP SIGNATURE-----", "a detached signature")
    ed = base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + g.raw(32)).decode()
    N("public_key", f"ssh-ed25519 {ed} ann@laptop")
    rsa = base64.b64encode(b"\x00\x00\x00\x07ssh-rsa" + g.raw(270)).decode()
    N("public_key", f"ssh-rsa {rsa} deploy@ci")
    ecdsa = base64.b64encode(b"\x00\x00\x00\x13ecdsa-sha2-nistp256" + g.raw(90)).decode()
    N("public_key", f"github.com ecdsa-sha2-nistp256 {ecdsa}", "a known_hosts line")
    N("public_key", f"256 SHA256:{g.b64(32, pad=False)} ann@laptop (ED25519)", "ssh-keygen -l output")
    N("public_key", json.dumps({"keys": [{"kty": "RSA", "kid": g.s(B64URL, 16), "use": "sig", "alg": "RS256", "n": g.b64(256, urlsafe=True, pad=False), "e": "AQAB"}]}), "a JWKS")
    N("public_key", f"age1{g.s(BECH32.lower(), 58)}", "an age recipient (public)")
    N("public_key", f"pk_live_51{g.s(ALNUM, 97)}", "a Stripe publishable key (public by design)")
    N("public_key", "pk.eyJ1IjoiYWNtZSIsImEiOiJja2V4YW1wbGUifQ." + g.s(B64URL, 22), "a Mapbox public token (public by design)")
    N("public_key", "ssh: handshake failed: ssh: unable to authenticate, attempted methods [none publickey], no supported methods remain")
    # request ids
    for text in [
        f"x-request-id: req_{g.s(HEX, 32)}",
        f"request-id: req_{g.s(ALNUM, 24)}",
        f"cf-ray: {g.s(HEX, 16)}-FRA",
        f"X-Amzn-RequestId: {g.uuid()}",
        f"x-github-request-id: {g.s(HEX.upper(), 4)}:{g.s(HEX.upper(), 5)}:{g.s(HEX.upper(), 7)}:{g.s(HEX.upper(), 7)}:{g.s(HEX.upper(), 8)}",
        f"traceparent: 00-{g.s(HEX, 32)}-{g.s(HEX, 16)}-01",
        f'{{"error": {{"message": "Rate limit reached", "type": "requests", "request_id": "req_{g.s(HEX, 32)}"}}}}',
        f"Stripe request id: req_{g.s(ALNUM, 14)}",
        f"RequestId: {g.uuid()} Duration: 12.3 ms",
        f"x-amz-cf-id: {g.b64(42, urlsafe=True)}",
    ]:
        N("request_id", text)
    # token usage and token-ish names
    for text in [
        "max_tokens=4096",
        '{"usage": {"prompt_tokens": 12, "completion_tokens": 30, "total_tokens": 42}}',
        "token_type=bearer",
        '{"access_token_expires_in": 3600, "token_type": "Bearer"}',
        "max_completion_tokens: 1024",
        "x-ratelimit-remaining-tokens: 39000",
        "anthropic-ratelimit-tokens-limit: 80000",
        "tokens_per_minute=90000",
        "This model's maximum context length is 8192 tokens.",
        '{"input_tokens": 1200, "output_tokens": 350, "cache_read_input_tokens": 0}',
        "tokenizer: cl100k_base",
        "error: token_count: 512 exceeds 256",
    ]:
        N("token_usage", text)
    # pagination cursors
    for text in [
        f'{{"next_cursor": "{base64.b64encode(b"user:U0G9WFXNZ").decode()}"}}',
        f'{{"nextPageToken": "{g.s(B64URL, 40)}"}}',
        f"GET /v1/items?page_token={g.s(B64URL, 32)}&limit=20",
        f'{{"continuationToken": "{g.b64(24)}"}}',
        f"?starting_after=cus_{g.s(ALNUM, 14)}&limit=10",
        f'{{"paging": {{"cursors": {{"before": "{g.s(B64URL, 20)}", "after": "{g.s(B64URL, 20)}"}}}}}}',
        f'Link: <https://api.example.com/items?page=3&per_page=50>; rel="next"',
        f'{{"next_page_token": "{g.s(ALNUM, 24)}", "items": []}}',
        f'{{"syncToken": "{g.s(B64URL, 16)}"}}',
    ]:
        N("pagination_cursor", text)
    # WWW-Authenticate and auth error prose
    for text in [
        'WWW-Authenticate: Bearer realm="example", error="invalid_token", error_description="The access token expired"',
        'WWW-Authenticate: Basic realm="Access to staging", charset="UTF-8"',
        "WWW-Authenticate: Negotiate",
        f'WWW-Authenticate: Digest realm="api", qop="auth", nonce="{g.s(HEX, 32)}", opaque="{g.s(HEX, 32)}"',
        'www-authenticate: Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"',
        "401 Unauthorized: missing Authorization header",
        "Authorization header must start with Bearer",
        "Invalid token: signature verification failed",
        "token: expired",
        "auth: unable to authenticate with the provided credentials",
        "password: authentication failed for user \"app\"",
        "error: Authorization: required",
        "WARN auth: retry 2/5 with cached credentials",
    ]:
        N("auth_error_prose", text)
    # JSON Schemas that name secrets as properties
    schema = {"type": "object", "properties": {"username": {"type": "string"}, "password": {"type": "string", "minLength": 12, "format": "password", "description": "The account password"}}, "required": ["username", "password"]}
    N("json_schema", json.dumps(schema))
    N("json_schema", json.dumps({"type": "object", "properties": {"api_key": {"type": "string", "description": "Your API key"}, "token": {"$ref": "#/$defs/Token"}}}, indent=2))
    N("json_schema", json.dumps({"name": "login", "inputSchema": {"type": "object", "properties": {"client_secret": {"type": "string"}}, "required": ["client_secret"]}}))
    N("json_schema", "Validation failed: password: String must contain at least 12 character(s)")
    N("json_schema", "1 validation error for Login\npassword\n  Field required [type=missing, input_value={'username': 'ann'}, input_type=dict]")
    N("json_schema", '"password" is required')
    N("json_schema", "Invalid value for 'token': expected string, received number")
    N("json_schema", json.dumps({"openapi": "3.1.0", "components": {"securitySchemes": {"apiKey": {"type": "apiKey", "in": "header", "name": "X-Api-Key"}}}}))
    # secret-named metadata: values that carry no secret
    for text in [
        '{"has_password": true}',
        '{"password_set": false, "mfa_enabled": true}',
        '{"token_expires_at": "2024-05-17T12:00:00Z"}',
        '{"passwordLastChanged": "2024-01-01"}',
        '{"auth_required": true}',
        "PWD=/home/runner/work/app",
        "OLDPWD=/home/runner",
        '{"secret_name": "db-creds", "secret_version": 3}',
        "open /var/run/secrets/kubernetes.io/serviceaccount/token: no such file or directory",
        '{"api_key_id": "key_01HXYZ", "api_key_last4": "a1b2"}',
        '{"credential_type": "oauth2"}',
        "auth_type=oauth2 auth_method=client_secret_post",
    ]:
        N("secret_named_metadata", text)
    # ordinary prose and log lines
    for text in [
        "Error: ENOENT: no such file or directory, open '/srv/notes.md'",
        "Connection refused (os error 111)",
        "ssh: connect to host example.com port 22: Connection timed out",
        "git@github.com: Permission denied (publickey).",
        "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
        "The token expired; request a new one from the settings page.",
        "Use the system keyring to store your password.",
        "Password must be at least 12 characters long.",
        "Authentication failed for user \"bob\".",
        "GET /api/v1/users?page=2&per_page=50 200 12ms",
        "see https://example.com/docs?page=2&sort=desc#tokens",
        "postgres://db.internal:5432/app",
        "ssh://git@github.com/acme/app.git",
        "mailto:ann@example.com",
        "Contact ann@example.com for access.",
        "Content-Type: application/json; charset=utf-8",
        "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36",
        "X-RateLimit-Remaining: 0",
        "Retry-After: 20",
        "version 1.2.3-rc.1+build.5",
        "listening on [::]:8080",
        "MAC 00:1a:2b:3c:4d:5e",
        "color: #1a2b3c",
        "https://github.com/acme/app/blob/main/src/auth/token.rs#L42",
        "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    import secrets\nModuleNotFoundError: No module named 'secrets'",
        "panic: runtime error: index out of range [3] with length 3",
        "TypeError: Cannot read properties of undefined (reading 'token')",
        "docker login --password-stdin -u bob",
        "echo \"$PASSWORD\" | docker login --username bob --password-stdin",
        "kubectl get secret db-creds -o yaml",
        "Error from server (NotFound): secrets \"db-creds\" not found",
        "The key \"apiKey\" is required.",
        f"{g.timestamp()} INFO server started in 312ms",
        f"{g.timestamp()} WARN slow query (1.2s): SELECT id FROM users WHERE email = $1",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
        "keyboard layout: us; monkey patching disabled; bypass_cache=true",
        "sort_key=created_at primaryKey=id foreign_key=user_id",
        "The author of the passage is unknown.",
        "curl: (6) Could not resolve host: api.example.com",
        "HTTP/1.1 429 Too Many Requests",
        "pip install cryptography==42.0.5",
        "npm ERR! code E401\nnpm ERR! Incorrect or missing password.",
        "Set the OPENAI_API_KEY environment variable before running.",
        "To rotate the token, go to Settings > Developer settings > Tokens.",
        "passport_country=DE",
        "compass heading 270",
        "    image: registry.example.com/auth:4f1c2a9e7b3d\n    imagePullPolicy: IfNotPresent",
        "docker pull ghcr.io/acme/token:9c1d2e3f4a5b6c7d",
    ]:
        N("ordinary", text)
    # structured negatives: the output must keep the value as it was
    NS("json_schema", ["invalid arguments"], {"error": {"kind": "invalid_param", "message": "invalid arguments"}, "schema": schema}, "a JSON Schema with a password property")
    NS("token_usage", ["rate limited"], {"error": {"kind": "rate_limited", "message": "too many tokens"}, "usage": {"max_tokens": 4096, "prompt_tokens": 5000, "token_type": "input"}})
    NS("pagination_cursor", ["partial result"], {"items": [], "nextPageToken": g.s(B64URL, 40)}, "a Google-style page token")
    NS("secret_named_metadata", ["password expired"], {"error": {"message": "password expired"}, "user": {"has_password": True, "password_changed_at": "2024-01-01T00:00:00Z"}})
    NS("secret_named_metadata", ["auth failed"], {"auth": {"type": "oauth2", "scopes": ["repo"]}}, "an auth description without a credential")
    NS("request_id", ["failed"], {"request_id": "req_" + g.s(HEX, 32), "trace_id": g.s(HEX, 32)})
    NS("digest", ["integrity mismatch"], {"expected": "sha512-" + g.b64(64), "actual": "sha512-" + g.b64(64)})
    NS("public_key", ["key mismatch"], {"publicKey": "ssh-ed25519 " + base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + g.raw(32)).decode() + " ci"})
    # Tables and prose that name secrets without holding one.
    N("schema_table", "| name | type | required | description |\n|---|---|---|---|\n| token | string | yes | Your API token |\n| password | string | no | The account password |\n")
    N("schema_table", f"| key | value |\n|---|---|\n| commit | {g.s(HEX, 40)} |\n| session token | {g.s(HEX, 40)} |\n| sort key | created_at |\n", "hashes in cells named after secrets")
    N("auth_error_prose", "The password is incorrect. The token was revoked; set the key to a new value in settings.")
    N("schema_table", "| user | tokens | session |\n|---|---|---|\n| ann | 1200 | active |\n| bob | 87 | expired |\n", "counts and states under names of secrets")
    N("ordinary", "<ListBucketResult><Contents><Key>photos/2006/February/sample.jpg</Key><ETag>&quot;bf1d737a4d46a19f3bced6905cc8b902&quot;</ETag></Contents></ListBucketResult>", "an S3 listing: object keys")
    N("auth_error_prose", "The password is Case-Sensitive. The token is HS256-signed and Base64-encoded; send the secret to GitHub.com.")
    N("ordinary", "smtp to:ann@mail.example.com:587; Error: connect ECONNREFUSED app:db@127.0.0.1:5432; queue:jobs@redis:6379")
    N("schema_table", "| Secret | Description |\n|---|---|\n| DB_PASSWORD | Database-password |\n| Secret key | AES-256-GCM |\n| Signing key | 4AEE18F83AFDEB23 |\n", "names and kinds of secrets, a key's public id")
    N("ordinary", f"ssh git@github.com:acme/app.git; docker pull node:20@sha256:{g.s(HEX, 64)}; mailto:ops@mail.example.com:25")
    return out


# --- output -----------------------------------------------------------------------------


def build():
    positives = []
    for name, source, fn in FAMILIES:
        g = Gen(name)
        cases = fn(g) + (MORE[name](Gen(name + "/more")) if name in MORE else [])
        for n, case in enumerate(cases, 1):
            if not case["secrets"]:
                raise SystemExit(f"{name} case {n} plants no secret")
            positives.append({"id": f"{name}/{n:02d}", "family": name, **case})
    negs, seen = [], {}
    for case in negatives():
        seen[case["class"]] = seen.get(case["class"], 0) + 1
        negs.append({"id": f"{case['class']}/{seen[case['class']]:02d}", **case})
    return positives, negs


def dump(cases):
    return "".join(json.dumps(c, ensure_ascii=True) + "\n" for c in cases)


def families_table():
    return [(name, source) for name, source, _ in FAMILIES]


def main():
    positives, negs = build()
    files = {"positives.jsonl": dump(positives), "negatives.jsonl": dump(negs)}
    if "--sources" in sys.argv:
        for name, source in families_table():
            print(f"| `{name}` | {source} |")
        return 0
    if "--check" in sys.argv:
        stale = [name for name, text in files.items() if not os.path.exists(os.path.join(HERE, name)) or open(os.path.join(HERE, name), encoding="utf-8").read() != text]
        if stale:
            print("out of date: " + ", ".join(stale) + " (run python3 tests/redaction/generate.py)")
            return 1
        print(f"up to date: {len(positives)} positives, {len(negs)} negatives")
        return 0
    for name, text in files.items():
        with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    print(f"wrote {len(positives)} positives over {len(FAMILIES)} families and {len(negs)} negatives")
    return 0


if __name__ == "__main__":
    sys.exit(main())
