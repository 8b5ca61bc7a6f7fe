//! The secret scanners behind [`crate::text::redact::SECRET_RULES`]: each finds the byte ranges
//! of one family of secrets. They are hand-written byte loops (every pattern starts from a
//! literal found with a substring search), so a text costs a few linear passes.
//!
//! Ranges cover only the secret itself; what surrounds it (a header name, a scheme, the
//! quotes of a JSON string) stays readable.

mod cli;
mod encoded;
mod fields;
mod headers;
mod tokens;
mod urls;

pub(crate) use cli::cli_credentials;
pub(crate) use encoded::{base64_blobs, percent_encoded_runs};
pub(crate) use fields::{
    column_values, flag_values, is_placeholder, is_placeholder_value, latin_labeled_values, looks_random, paired_values, password_inputs,
    pgpass_passwords, quoted_pairs, script_labeled_values, secret_field_values, spaced_values, sql_identified_by,
};
pub(crate) use headers::{authorization_values, basic_credentials, bearer_tokens, cookie_headers, cookie_jar_values};
pub(crate) use tokens::{
    aws_secret_keys, dotted_tokens, jwts, private_keys, provider_tokens, shaped_tokens, telegram_tokens, webhook_urls,
};
pub(crate) use urls::{proxy_credentials, schemeless_dsn, secret_query_values, url_credentials, MAX_USERINFO, QUERY_NAME_STEMS};

use crate::search::{byte_class, find_from, next_in_class, positions, positions_ignore_ascii_case, ByteClass};
use crate::text::redact::{Hints, MARKER_PREFIX};
use crate::text::secret_names::KeyNames;

/// HTTP authorization schemes kept in front of a redacted credential.
const AUTH_SCHEMES: &[&str] = &["bearer", "basic", "token", "digest", "negotiate", "apikey"];

/// Longest key name considered, in bytes.
const MAX_KEY_NAME: usize = 64;

/// Characters that continue a word for boundary checks.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether a token may start at `i`: no word character right before it, or only the
/// letter of a JSON/C escape (`\n`, `\t`, ...), as in JSON text quoted inside a text block.
fn boundary_before(bytes: &[u8], i: usize) -> bool {
    let escaped = i >= 2 && bytes[i - 2] == b'\\' && matches!(bytes[i - 1], b'n' | b't' | b'r' | b'b' | b'f');
    i == 0 || !is_word(bytes[i - 1]) || escaped
}

/// End of the run of bytes from `start` that satisfy `class`.
fn run_end(bytes: &[u8], start: usize, class: impl Fn(u8) -> bool) -> usize {
    let mut i = start;
    while i < bytes.len() && class(bytes[i]) {
        i += 1;
    }
    crate::search::work::tally(i - start + 1);
    i
}

fn skip_blanks(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

/// Whether `bytes[i..]` starts with `word`, ASCII case-insensitively.
fn starts_with_ci(bytes: &[u8], i: usize, word: &str) -> bool {
    bytes.len() >= i + word.len() && bytes[i..i + word.len()].eq_ignore_ascii_case(word.as_bytes())
}

fn base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Bytes that can continue an unquoted secret value: not whitespace, quotes, separators or
/// brackets (which close the text around a value, as in `<Bearer x>` or `(token=y)`), or
/// a backslash (a literal `\n` in quoted JSON ends the value).
fn value_byte(b: u8) -> bool {
    !b.is_ascii_whitespace()
        && !matches!(b, b',' | b';' | b'&' | b'"' | b'\'' | b'\\' | b'<' | b'>' | b'{' | b'}' | b'(' | b')' | b'[' | b']')
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::*;

    fn found(text: &str, scan: fn(&str) -> Vec<Range<usize>>) -> Vec<&str> {
        scan(text).into_iter().map(|r| &text[r]).collect()
    }

    fn tokens(text: &str) -> Vec<Range<usize>> {
        provider_tokens(text, &crate::text::tokens::CustomTokens::NONE).into_iter().map(|(r, _)| r).collect()
    }

    // The key-name scanners with the built-in names alone.
    fn secret_field_values(text: &str) -> Vec<Range<usize>> {
        super::secret_field_values(text, &KeyNames::NONE, &Hints::of(text))
    }
    fn flag_values(text: &str) -> Vec<Range<usize>> {
        super::flag_values(text, &KeyNames::NONE, &Hints::of(text))
    }
    fn spaced_values(text: &str) -> Vec<Range<usize>> {
        super::spaced_values(text, &KeyNames::NONE, &Hints::of(text))
    }
    fn quoted_pairs(text: &str) -> Vec<Range<usize>> {
        super::quoted_pairs(text, &KeyNames::NONE, &Hints::of(text))
    }
    fn column_values(text: &str) -> Vec<Range<usize>> {
        super::column_values(text, &KeyNames::NONE, &Hints::of(text))
    }
    fn paired_values(text: &str) -> Vec<Range<usize>> {
        super::paired_values(text, &KeyNames::NONE, &Hints::of(text))
    }
    fn secret_query_values(text: &str) -> Vec<Range<usize>> {
        super::secret_query_values(text, &KeyNames::NONE, &Hints::of(text))
    }
    fn authorization_values(text: &str) -> Vec<Range<usize>> {
        super::authorization_values(text, &Hints::of(text))
    }

    /// Passwords in the formats that write them beside other settings: a form's password
    /// field, an ODBC braced value, a properties file's escapes, a passphrase alone on a
    /// configuration line, a pre-shared key, and the commands that take one.
    #[test]
    fn passwords_in_forms_configurations_and_commands() {
        assert_eq!(found(r#"<input type="password" name="pw" value="hunter2Xk29">"#, password_inputs), vec!["hunter2Xk29"]);
        assert_eq!(found("<INPUT value=Xk29fjQp3LmZ TYPE=password/>", password_inputs), vec!["Xk29fjQp3LmZ"]);
        for plain in [r#"<input type="text" value="alice">"#, r#"<input type="password" value="">"#, "<inputs type=password value=x1>"] {
            assert!(password_inputs(plain).is_empty(), "{plain}");
        }
        // A tag is read within its bound whatever it holds (a reviewer's cases: a name or
        // blanks past the bound, an unclosed quote over characters of two bytes).
        for hostile in [
            format!("<input {}=\"x\"", "a".repeat(1100)),
            format!("<input type={}\"x\"", " ".repeat(1100)),
            format!("<input type=\"{}", "é".repeat(600)),
        ] {
            assert!(password_inputs(&hostile).is_empty());
        }
        assert_eq!(password_inputs(&"<input/a=".repeat(1000)).len(), 0);
        assert!(secret_query_values("https://h/login?pass={pass}").is_empty());
        assert_eq!(found("Uid=sa;Pwd={p;a}}ss42word};Encrypt=yes", secret_query_values), vec!["p;a}}ss42word"]);
        assert_eq!(found("db.password=se\\=cr\\:et42Xk\n", secret_field_values), vec!["se\\=cr\\:et42Xk"]);
        assert_eq!(found("[db]\npassword = correct horse battery staple\n", secret_field_values), vec!["correct horse battery staple"]);
        assert_eq!(found("network={\n  psk=\"two words 42\"\n}", secret_field_values), vec!["two words 42"]);
        for prose in
            ["password = the one you set", "x password = one two", "auth: unable to authenticate now", "password: connection failed"]
        {
            assert!(secret_field_values(prose).is_empty(), "{prose}");
        }
        assert_eq!(found("cmdkey /generic:srv /user:ann /pass:Xk29fjQp3LmZ", cli_credentials), vec!["Xk29fjQp3LmZ"]);
        assert_eq!(found("net user ann Xk29fjQp3LmZ /add", cli_credentials), vec!["Xk29fjQp3LmZ"]);
        assert_eq!(found("$p = ConvertTo-SecureString 'Xk29fjQp3LmZ' -AsPlainText -Force", cli_credentials), vec!["Xk29fjQp3LmZ"]);
        for plain in ["net user ann * /add", "net user bob /delete", "ConvertTo-SecureString $enc -Key $k"] {
            assert!(cli_credentials(plain).is_empty(), "{plain}");
        }
    }

    #[test]
    fn pem_blocks_need_a_private_key_label() {
        assert!(private_keys("-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----").is_empty());
        assert_eq!(found("x -----BEGIN EC PRIVATE KEY-----\nab\n-----END EC PRIVATE KEY----- y", private_keys).len(), 1);
    }

    #[test]
    fn jwts_need_three_segments() {
        assert!(jwts("eyJhbGciOiJIUzI1NiJ9 alone").is_empty());
        assert_eq!(found("a eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig b", jwts), vec!["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"]);
    }

    #[test]
    fn tokens_need_a_boundary_and_a_long_enough_body() {
        assert!(tokens("task-abcdefghijklmnopqrstuvwxyz").is_empty());
        assert_eq!(found("xghp_abcdefghijklmnopqrstuvwxyz0123456789", tokens).len(), 1);
        assert_eq!(found(r"\nsk-abcdefghijklmnopqrstuvwxyz", tokens).len(), 1);
        assert!(tokens("sk-short").is_empty());
        assert_eq!(found("key=SG.abcdefghijklmnop.qrstuvwxyz0123456", tokens), vec!["SG.abcdefghijklmnop.qrstuvwxyz0123456"]);
        // Base64 bodies (`+`, `/`, `=`, percent-encoded) and prefixes of several shapes.
        let grafana = "glc_eyJvIjoiMTIzNDU2Iiwibi/I6InRva2VuLW5hbWUiLCJrIjoi+Q==";
        assert_eq!(found(&format!("token {grafana} ok"), tokens), vec![grafana]);
        let refresh = "1//0gAbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abc";
        assert_eq!(found(&format!("refresh: {refresh}"), tokens), vec![refresh]);
        assert!(tokens("secret_name and secret_key_base").is_empty());
    }

    #[test]
    fn authorization_keeps_header_and_scheme() {
        assert_eq!(found("Authorization: Bearer abc.def", authorization_values), vec!["abc.def"]);
        assert_eq!(found(r#"{"authorization":"Basic dXNlcjpw"}"#, authorization_values), vec!["dXNlcjpw"]);
        assert!(authorization_values("no authorization needed").is_empty());
        // Any scheme, and every auth-param after it; prose after the credential stays.
        assert_eq!(found("Authorization: NTLM TlRMTVNTUAAD+/== then more", authorization_values), vec!["TlRMTVNTUAAD+/=="]);
        assert_eq!(
            found(r#"Authorization: Digest username="ann", nonce="n1", response="6629fae4" sent"#, authorization_values),
            vec![r#"username="ann", nonce="n1", response="6629fae4""#]
        );
        assert_eq!(found(r#"{"authorization":"SSWS 00gBioMN_x"}"#, authorization_values), vec!["00gBioMN_x"]);
        assert_eq!(found(r#"{\"Authorization\": \"Hawk id=\"a\", mac=\"b\"\"}"#, authorization_values).len(), 1);
        // Placeholders and references are no credentials.
        for text in ["Authorization: Bearer $TOKEN", "Authorization: Bearer ${ACCESS_TOKEN}", "error: Authorization: required"] {
            assert!(authorization_values(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn cookies_only_as_header_lines() {
        assert_eq!(found("x\n  Set-Cookie: a=b; Path=/\nnext", cookie_headers), vec!["a=b; Path=/"]);
        assert!(cookie_headers("the cookie: jar").is_empty());
    }

    #[test]
    fn url_userinfo_needs_a_password() {
        assert_eq!(found("postgres://app:pw@db:5432/x", url_credentials), vec!["app:pw"]);
        assert!(url_credentials("ssh://git@github.com/x").is_empty());
    }

    #[test]
    fn url_passwords_may_hold_any_character() {
        assert_eq!(found("https://bob:J2bL/9DZ#0q?U@example.com/", url_credentials), vec!["bob:J2bL/9DZ#0q?U"]);
        assert_eq!(found(r#"{"url": "https:\/\/ann:kHOe^fip@example.com\/x"}"#, url_credentials), vec!["ann:kHOe^fip"]);
        assert_eq!(found(r#""https://ann:HWm0 DEum@example.com/x""#, url_credentials), vec!["ann:HWm0 DEum"]);
        for plain in ["https://host:8080/users/@ann", "https://example.com/path@v2", "see https://a.example/x then mail ann@example.com"] {
            assert!(url_credentials(plain).is_empty(), "{plain}");
        }
        assert_eq!(found("dsn app:g2LP+9o1A@tcp(127.0.0.1:3306)/app", schemeless_dsn), vec!["app:g2LP+9o1A"]);
        assert_eq!(found("sqlplus app/as.C2IxX@//db:1521/ORCL", schemeless_dsn), vec!["app/as.C2IxX"]);
    }

    #[test]
    fn query_values_by_parameter_name() {
        assert_eq!(found("/cb?code=abc&state=xyz&sig=123", secret_query_values), vec!["abc", "123"]);
        // A URL in prose or markup ends before the punctuation after it.
        assert_eq!(found("failed (https://h.test/s?q=x&api_key=sk-4f9a8b7c6d5e).", secret_query_values), vec!["sk-4f9a8b7c6d5e"]);
        assert_eq!(found("see [docs](https://h.test/?token=abcdef123456), then", secret_query_values), vec!["abcdef123456"]);
        assert_eq!(found("https://h.test/?token=abc(12)3)]", secret_query_values), vec!["abc(12)3"]);
        assert_eq!(found("https://h.test/?token=abc)", secret_query_values), vec!["abc"]);
        // A hostile tail of closers is trimmed in one pass (the step counter is linear).
        let closers = format!("https://h.test/?token=x{}", ")".repeat(50_000));
        assert_eq!(found(&closers, secret_query_values), vec!["x"]);
    }

    #[test]
    fn secret_fields_in_text_and_json() {
        assert_eq!(found(r#"{"apiKey": "k1", "name": "n"}"#, secret_field_values), vec!["k1"]);
        assert_eq!(found("retry with password = hunter2;", secret_field_values), vec!["hunter2"]);
        assert_eq!(found("run --password=pw1 --api-key=k2", secret_field_values), vec!["pw1", "k2"]);
        assert_eq!(found("run --api-key k3 --verbose --token -x", flag_values), vec!["k3"]);
        assert_eq!(found("<--api-key k4>", flag_values), vec!["k4"]);
        assert_eq!(found(r#""\npassword=pw5\n""#, secret_field_values), vec!["pw5"]);
        assert_eq!(found(r#"{\"client_secret\": \"cs6\"}"#, secret_field_values), vec!["cs6"]);
        assert!(secret_field_values("https://example.com max_tokens=5 ns::tool").is_empty());
        // Weak names hold a secret only when the value looks generated.
        assert_eq!(found(r#"{"pass": "sqGuGVygUHdMh2izBV5U"}"#, secret_field_values), vec!["sqGuGVygUHdMh2izBV5U"]);
        assert!(secret_field_values("tests pass=3 fail=0 key=value key: user-name").is_empty());
        // Shell directories and ids of keys are not secrets; AWS key ids and session ids are.
        assert!(secret_field_values(r#"PWD=/home/runner OLDPWD=/tmp {"api_key_id": "key_01HXYZ"}"#).is_empty());
        assert_eq!(found(r#"{"access_key_id": "A1", "session_id": "s2"}"#, secret_field_values), vec!["A1", "s2"]);
    }

    #[test]
    fn spaced_name_stems_start_with_a_stem_of_secret_names() {
        for stem in fields::SPACED_NAME_STEMS {
            let starts = crate::text::secret_names::StemStarts::of(stem);
            assert_eq!(starts.next(0), Some(0), "{stem} starts with none of SECRET_NAME_STEMS");
        }
    }

    #[test]
    fn spaced_values_need_a_secret_name_and_a_generated_value() {
        assert_eq!(
            found("aws configure set aws_secret_access_key j2esQnJHPPeJ/IYP9sk1 --profile ci", spaced_values),
            vec!["j2esQnJHPPeJ/IYP9sk1"]
        );
        assert_eq!(found("machine h login ann password gA+aEWW0l^TG^^4P", spaced_values), vec!["gA+aEWW0l^TG^^4P"]);
        assert_eq!(found("ENV API_TOKEN hVWw4UmZ2JCDobcRQi1E", spaced_values), vec!["hVWw4UmZ2JCDobcRQi1E"]);
        // Prose that links the name to its value.
        assert_eq!(found("the password is Xk9vQ2mLp7tR, keep it", spaced_values), vec!["Xk9vQ2mLp7tR"]);
        assert_eq!(found("Your API token was: 8f2a9c7e1b3d4f6aZ", spaced_values), vec!["8f2a9c7e1b3d4f6aZ"]);
        assert_eq!(found("set the secret to Ab9Xk2mQ7pLz", spaced_values), vec!["Ab9Xk2mQ7pLz"]);
        // Markdown tables: the name is the whole cell, the value the next one.
        let table = "| Field | Value |\n|---|---|\n| password | Xk9vQ2mLp7tR |\n| API Key | `8f2a9c7e1b3d4f6a9c7e1b3d` |\n|user|ann|\n| **Token** | Q7v9x2Lp0Zk3Wm |\n";
        assert_eq!(found(table, spaced_values), vec!["Xk9vQ2mLp7tR", "8f2a9c7e1b3d4f6a9c7e1b3d", "Q7v9x2Lp0Zk3Wm"]);
        // A name's cell that ends in a colon: the value is the next cell, not the bar.
        assert_eq!(found("| Password: | Xk9vQ2mLp7tR |\n| **Token:** | hunter2 |\n", secret_field_values), vec!["Xk9vQ2mLp7tR", "hunter2"]);
        assert_eq!(found("password: |\n  Xk9vQ2mLp7tR\n", secret_field_values), vec!["Xk9vQ2mLp7tR"]);
        // A name of two words in prose.
        assert_eq!(found("Your API key is Xk9vQ2mLp7tR8f2a.", spaced_values), vec!["Xk9vQ2mLp7tR8f2a"]);
        for prose in [
            "the password is incorrect",
            "the token was 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
            "| name | type | description |\n|---|---|---|\n| token | string | Your API token |\n| password | required | yes |",
            "| key | 4b825dc642cb6eb9a060e54bf8d69288fbee4904 |",
            "| session token | 4b825dc642cb6eb9a060e54bf8d69288fbee4904 |",
            "| sort key | created_at |",
            "The password is Case-Sensitive. The token is HS256-signed. The secret is Base64-encoded",
            "Send the password to GitHub.com; pass the token to MyClient.connect() before use",
            "| Secret key | AES-256-GCM |\n| Signing key | 4AEE18F83AFDEB23 |\n| token | 0x6B175474E89094C44Da98b954EedeAC495271d0F |",
            "password reset link sent",
            "the token expired at 2026-12-01T10:00:00Z",
            "secret a132eb11-1376-4baf-819f-9199ee3746b1",
            "token 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
            "key /home/ann/.ssh/id_ed25519",
        ] {
            assert!(spaced_values(prose).is_empty(), "{prose}");
        }
    }

    #[test]
    fn columns_named_secret_in_csv_tsv_and_markdown_tables() {
        assert_eq!(found("username,password\nadmin,Xk9vQ2mLp7tR\nbob,s3cret!\n\nafter,x", column_values), vec!["Xk9vQ2mLp7tR", "s3cret!"]);
        let aws = "User name,Password,Access key ID,Secret access key,Console login link\r\nci-bot,,,TX0KfQSMKUqnavFDdvAKjMywMn6TNT57Vz171ZqH,https://1.signin.aws.amazon.com/console\r\n";
        assert_eq!(found(aws, column_values), vec!["TX0KfQSMKUqnavFDdvAKjMywMn6TNT57Vz171ZqH"]);
        let markdown = "| id | email | api_key |\n|---|---|---|\n| 1 | ann@example.com | `8f2a9c7e1b3d4f6aa7` |\n| 2 | bob@example.com | Xk9vQ2mLp7tRz |\n";
        assert_eq!(found(markdown, column_values), vec!["8f2a9c7e1b3d4f6aa7", "Xk9vQ2mLp7tRz"]);
        assert_eq!(found("id\tname\ttoken\n1\tann\tQ7v9x2Lp0Zk3\n", column_values), vec!["Q7v9x2Lp0Zk3"]);
        // A short name takes only what looks generated.
        assert_eq!(found("host,pass\ndb1,hunter2x\ndb2,Xk9vQ2mLp7tR\n", column_values), vec!["Xk9vQ2mLp7tR"]);
        // Names of secrets listed under a secret's column, and a generic key column.
        for plain in [
            "| Secret | Description |\n|---|---|\n| DB_PASSWORD | Database-password |\n",
            "| Key | Value |\n|---|---|\n| X-Request-Id | Abc-123-Def-456 |\n",
        ] {
            assert!(column_values(plain).is_empty(), "{plain}");
        }
        for plain in [
            "name,type,required\npassword,string,yes\ntoken,string,no\n",
            "Reset your password, then log in, or call\nThanks, Ann, bye\n",
            "| step | token |\n|---|---|\n| 1 | 42 |\n| 2 | ok |\n",
            "user,password\nann,[REDACTED:secret_field]\nbob,<redacted>\ncid,two words\n",
            "user,password\nann,x,y\n",
        ] {
            assert!(column_values(plain).is_empty(), "{plain}");
        }
    }

    #[test]
    fn proxy_credentials_need_a_host_and_port_and_no_scheme() {
        assert_eq!(found("proxy 10.0.0.5:8080 via bob:Xk9vQ2mLp7tR@proxy.internal:3128", proxy_credentials), vec!["bob:Xk9vQ2mLp7tR"]);
        assert_eq!(found("HTTP_PROXY=ann:s3cret-pw@proxy:8080\n", proxy_credentials), vec!["ann:s3cret-pw"]);
        assert_eq!(found("Use ann:Xk9vQ2mLp7tR@proxy.corp:8080.", proxy_credentials), vec!["ann:Xk9vQ2mLp7tR"]);
        assert_eq!(found(r#"{"proxy": "svc:Q7v!x2@10.1.2.3:3128"}"#, proxy_credentials), vec!["svc:Q7v!x2"]);
        for plain in [
            "mailto:ann@mail.example.com:25",
            "git@github.com:org/repo.git",
            "2026-12-01T10:00:00.123@host:80",
            "ssh root@10.0.0.1:22",
            "node:20@sha256:12345",
            "to:ann@mail.example.com:587 queue:jobs@redis:6379 ECONNREFUSED app:db@127.0.0.1:5432 image:v1@digest:1234",
            "https://x.example/a:b@c:1 ann:pw@host",
            "user:password@host:5432",
            "ann:pw@host:123456 ann:pw@host:80a",
        ] {
            assert!(proxy_credentials(plain).is_empty(), "{plain}");
        }
    }

    #[test]
    fn secrets_in_code_and_config_shapes() {
        // Quoted names followed by their values, in code.
        assert_eq!(found(r#"define("DB_PASSWORD", "opdPlIxVWK1CY7TkLE6L");"#, quoted_pairs), vec!["opdPlIxVWK1CY7TkLE6L"]);
        assert_eq!(found(r#"config["secret"] = "viknrR5n""#, quoted_pairs), vec!["viknrR5n"]);
        assert_eq!(found(r#"ENV["API_KEY"] ||= "jWR9IGlD""#, quoted_pairs), vec!["jWR9IGlD"]);
        assert!(quoted_pairs(r#"fields: ["password", "username"]"#).is_empty());
        // Values running into names: each found, whether the value before is a token or
        // the marker that replaced one.
        let chain = r#""qhnh8yOaoN"DB_PASSWORD",  "Xk9vQ2mLp7Rt"DB_PASSWORD",  "Jw4nB8zKq3Vs""#;
        assert_eq!(found(chain, quoted_pairs), vec!["Xk9vQ2mLp7Rt", "Jw4nB8zKq3Vs"]);
        let marked = r#""[REDACTED:secret_field]"DB_PASSWORD",  "Xk9vQ2mLp7Rt"DB_PASSWORD",  "Jw4nB8zKq3Vs""#;
        assert_eq!(found(marked, quoted_pairs), vec!["Xk9vQ2mLp7Rt", "Jw4nB8zKq3Vs"]);
        // TOML multi-line strings, JSON escaped more than once, a JSON value on the next line.
        assert_eq!(found("signing_key = \"\"\"\nwB9X~U~!PmuzdZ3J\n\"\"\"", secret_field_values), vec!["\nwB9X~U~!PmuzdZ3J\n"]);
        assert_eq!(found(r#"\\\"password\\\": \\\"aHKbAiFN7B\\\""#, secret_field_values), vec!["aHKbAiFN7B"]);
        assert_eq!(found("{\"password\" :\n    \"eZS73QZlRv\"}", secret_field_values), vec!["eZS73QZlRv"]);
        // An element named by its attribute.
        assert_eq!(found(r#"<entry key="api.token">u1XbGH6KPuxgS63V</entry>"#, paired_values), vec!["u1XbGH6KPuxgS63V"]);
        // Short names hold a secret when the value looks generated; attributes may follow a name.
        assert_eq!(found("<Server><User>ann</User><Pass>Xk9vQ2mLp7tR</Pass></Server>", paired_values), vec!["Xk9vQ2mLp7tR"]);
        // Object keys and plist keys are no passwords.
        assert!(paired_values(
            "<Contents><Key>photos/2006/February/sample.jpg</Key></Contents><key>UISupportedInterfaceOrientations~ipad</key>"
        )
        .is_empty());
        assert_eq!(found(r#"<Pass encoding="base64">WGs5dlEybUxwN3RS</Pass>"#, paired_values), vec!["WGs5dlEybUxwN3RS"]);
        assert_eq!(found(r#"<password type="plain">hunter2</password>"#, paired_values), vec!["hunter2"]);
        assert!(paired_values("<pass>true</pass><key>sort_order</key><pass>3</pass>").is_empty());
        // A cookie jar line.
        assert_eq!(found(".example.com\tTRUE\t/\tTRUE\t1750000000\tsession\tcKGtFU-LW9hh\n", cookie_jar_values), vec!["cKGtFU-LW9hh"]);
    }

    #[test]
    fn keys_known_by_their_encoding() {
        let shaped = |text: &str| {
            shaped_tokens(text, &crate::text::redact::Hints::of(text)).into_iter().map(|(r, f)| (text[r].to_owned(), f)).collect::<Vec<_>>()
        };
        let azure = format!("{}==", "n0HFdJwUDuj2bhFBVnO43J6qSVoIzOHBP83eAn0dpC3FcST0BzYf5128x7NGFpcwBWtpDC/3abcdefghijklmn");
        assert_eq!(azure.len(), 88);
        assert_eq!(shaped(&format!("key is {azure}.")), vec![(azure.clone(), "azure_storage_key")]);
        // An integrity digest of the same length is no key.
        assert!(shaped(&format!("sha512-{azure}")).is_empty());
        assert_eq!(shaped("VAULT=s.yAqI0dOn7IvzsL0FwnbeO6j4"), vec![("s.yAqI0dOn7IvzsL0FwnbeO6j4".to_owned(), "vault_token")]);
        assert!(shaped("items.abcdefghijklmnopqrstuvwx").is_empty());
        let body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCQ6+45Ai104bpt\nKNqNjmLz3RGc3QlW78ikxcpZ6Qpj";
        assert_eq!(found(&format!("{body}\n\nnext"), private_keys), vec![body]);
    }

    /// Scanners that stop at a byte budget stop at a character boundary (the fuzzer found
    /// a command line cut inside `€`).
    #[test]
    fn byte_budgets_never_cut_a_character() {
        for pad in 0..4 {
            let a = "a".repeat(2040 + pad);
            for text in [
                format!("sshpass -p {a}€€€€"),
                format!("mysql -u root -phunter2 db{a}€€€€"),
                format!("key = \"\"\"{}€€€", "b".repeat(8 * 1024 - 2 + pad)),
                format!("{}€:pw@tcp(h:1)/d", "c".repeat(250 + pad)),
                format!("{}€€€€€€€:pw@tcp(h:1)/d", "é".repeat(125 + pad)),
                format!("<entry key=\"api.token\" {}›››››>v</entry>", "d".repeat(230 + pad)),
            ] {
                let _ = cli_credentials(&text);
                let _ = secret_field_values(&text);
                let _ = schemeless_dsn(&text);
                let _ = paired_values(&text);
                let _ =
                    crate::text::redact::redact_secrets(&text, crate::text::CustomRules::none(), &mut crate::text::Redactions::default());
            }
        }
    }

    #[test]
    fn generated_values_are_told_from_words_and_identifiers() {
        for value in ["sqGuGVygUHdMh2izBV5U", "xOO8crgJSt!8rG9Y", "ajTO07g+IJmLbk0H", "\"ezuBEwICpSQ2x-7J\""] {
            assert!(fields::looks_random(value), "{value}");
        }
        for value in ["swordfish", "hunter2", "5f3a9c0d1e2b4a6f", "2026-12-01T10:00:00Z", "/usr/local/bin", "Hello world 123"] {
            assert!(!fields::looks_random(value), "{value}");
        }
    }

    /// A fixed sequence of pseudo-random numbers (xorshift64) for generated test texts.
    pub(crate) fn random_numbers(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed;
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// Texts built from the pieces key-value syntaxes are made of, at random (a fixed
    /// seed): keys with and without secret words, every separator, quotes, escapes,
    /// blanks, line breaks and values.
    fn assignment_soup(count: usize) -> Vec<String> {
        const PIECES: &[&str] = &[
            "password",
            "Pass",
            "api_key",
            "token",
            "tokens",
            "auth",
            "x-api-key",
            "sessionId",
            "pw",
            "key",
            "page",
            "status",
            "monkey",
            "passenger",
            "secret_id",
            ":",
            "=",
            "::",
            ": ",
            " = ",
            "\"",
            "'",
            "\\\"",
            "\\n",
            " ",
            "\t",
            "\n",
            "-",
            "--",
            ".",
            "hunter2",
            "aB3dE5gH7jK9mN2p",
            "${VAR}",
            "[REDACTED:x]",
            "{",
            "}",
            ",",
            "é",
            "0",
        ];
        let mut next = random_numbers(0x9E37_79B9_7F4A_7C15);
        (0..count)
            .map(|_| {
                let len = 1 + (next() % 24) as usize;
                (0..len).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect()
            })
            .collect()
    }

    /// The field rule looks only at separators after a stem; with a policy's secret name
    /// (one that matches nothing) it looks at every separator, so both must find the same.
    #[test]
    fn field_values_skip_only_separators_no_secret_name_stands_before() {
        let every = KeyNames::new(&["zqzqzq_never".to_owned()], &[]);
        for text in assignment_soup(4000) {
            let hints = crate::text::redact::Hints::of(&text);
            assert_eq!(
                super::secret_field_values(&text, &KeyNames::NONE, &hints),
                super::secret_field_values(&text, &every, &hints),
                "{text:?}"
            );
        }
    }
}
