//! The text suite of the redaction benchmarks: eight families of text as tools and
//! servers print them, built line by line from real shapes with varying values (a seeded
//! generator, so every run measures the same bytes and no line repeats its neighbour).
//!
//! Shared by `benches/redact.rs` (native, against the `regex` crate) and
//! `examples/bench_texts.rs`, which writes the same texts for the npm comparison
//! (`js-package/bench/compare.mjs`).

/// A family of the suite: its name and how it is built.
pub struct Family {
    /// The name the tables print.
    pub name: &'static str,
    /// One planted secret every this many lines (`None`: none planted).
    pub secret_every: Option<usize>,
    line: fn(&mut Rng, &mut String),
}

/// Every family, in the order the tables print them.
pub const FAMILIES: [Family; 9] = [
    Family { name: "app_log", secret_every: Some(200), line: app_log },
    Family { name: "app_log_dense", secret_every: Some(5), line: app_log },
    Family { name: "json_errors", secret_every: Some(100), line: json_error },
    Family { name: "stack_traces", secret_every: Some(300), line: stack_trace },
    Family { name: "html_pages", secret_every: Some(300), line: html_page },
    Family { name: "shell_curl", secret_every: Some(100), line: shell_curl },
    Family { name: "k8s_yaml", secret_every: Some(150), line: k8s_yaml },
    Family { name: "prose", secret_every: None, line: prose },
    Family { name: "app_log_clean", secret_every: None, line: app_log },
];

impl Family {
    /// The family's text, at least `bytes` long (whole lines), and how many secrets it holds.
    pub fn text(&self, bytes: usize) -> (String, usize) {
        // Seeded by the name (FNV-1a), so each family has values of its own.
        let mut rng = Rng(self.name.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01B3)));
        let mut text = String::with_capacity(bytes + 4096);
        let (mut lines, mut secrets) = (0usize, 0usize);
        while text.len() < bytes {
            lines += 1;
            match self.secret_every {
                Some(every) if lines % every == 0 => {
                    secret_line(&mut rng, &mut text, secrets);
                    secrets += 1;
                }
                _ => (self.line)(&mut rng, &mut text),
            }
        }
        (text, secrets)
    }
}

/// SplitMix64: small, fast and good enough to vary values.
pub struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// `n` characters of `alphabet`.
    fn chars(&mut self, out: &mut String, alphabet: &[u8], n: usize) {
        for _ in 0..n {
            out.push(alphabet[self.below(alphabet.len())] as char);
        }
    }

    fn word(&mut self, alphabet: &[u8], n: usize) -> String {
        let mut s = String::with_capacity(n);
        self.chars(&mut s, alphabet, n);
        s
    }
}

const HEX: &[u8] = b"0123456789abcdef";
const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B64URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz";

const SERVICES: &[&str] = &["billing", "auth", "search", "orders", "inventory", "gateway", "notifier", "reports"];
const PATHS: &[&str] =
    &["/v1/items", "/api/users", "/graphql", "/v2/orders/search", "/healthz", "/repos/acme/web/issues", "/static/app.js"];
const WORDS: &[&str] = &[
    "the",
    "request",
    "failed",
    "because",
    "server",
    "returned",
    "an",
    "error",
    "while",
    "reading",
    "file",
    "from",
    "disk",
    "cache",
    "was",
    "cold",
    "and",
    "retry",
    "budget",
    "exhausted",
    "user",
    "session",
    "expired",
    "after",
    "minutes",
    "of",
    "inactivity",
    "configuration",
    "value",
    "missing",
    "for",
    "field",
    "limit",
    "page",
    "size",
    "must",
    "be",
    "between",
    "one",
    "hundred",
    "connection",
    "pool",
    "saturated",
    "queue",
    "depth",
    "grew",
    "to",
    "thousand",
    "messages",
];

fn timestamp(rng: &mut Rng, out: &mut String) {
    let (h, m, s, ms) = (rng.below(24), rng.below(60), rng.below(60), rng.below(1000));
    out.push_str(&format!("2026-12-{:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z", 1 + rng.below(28)));
}

/// A mixed application log: request lines with query strings, stack frames, a JSON error
/// body, an ENOENT line, a retry line with a commit sha, SQL timings.
fn app_log(rng: &mut Rng, out: &mut String) {
    timestamp(rng, out);
    let service = rng.pick(SERVICES);
    match rng.below(8) {
        0..=2 => out.push_str(&format!(
            " INFO {service}-{} {} {}?page={}&per_page={}&sort={} status={} in {} ms ({})",
            rng.below(9),
            rng.pick(&["GET", "POST", "PUT", "DELETE"]),
            rng.pick(PATHS),
            rng.below(50),
            rng.pick(&["20", "50", "100"]),
            rng.pick(&["created", "updated", "name"]),
            rng.pick(&["200", "201", "204", "304", "404", "500"]),
            rng.below(900),
            rng.pick(&["cache hit", "cache miss", "upstream"]),
        )),
        3 => out.push_str(&format!(
            " ERROR {service} at {}.{} ({}/src/{}.js:{}:{})",
            rng.pick(&["Object", "Router", "Layer", "Query"]),
            rng.pick(&["handle", "next", "dispatch", "run"]),
            rng.pick(&["/app", "/srv/service", "/usr/src/app"]),
            rng.pick(&["router", "db/pool", "handlers/items", "index"]),
            1 + rng.below(400),
            1 + rng.below(60),
        )),
        4 => out.push_str(&format!(
            " WARN {service} upstream said {{\"error\":{{\"code\":\"{}\",\"message\":\"{} {} {}\",\"request_id\":\"req_{}\"}}}}",
            rng.pick(&["rate_limited", "invalid_request", "not_found", "conflict"]),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.word(ALNUM, 14),
        )),
        5 => out.push_str(&format!(
            " ERROR {service} Error: ENOENT: no such file or directory, open '/var/lib/{service}/{}.json'",
            rng.word(LOWER, 8)
        )),
        6 => out.push_str(&format!(
            " INFO {service} retry {}/5 of deploy {} after {} ms",
            1 + rng.below(5),
            rng.word(HEX, 40),
            100 * rng.below(30)
        )),
        _ => out.push_str(&format!(
            " DEBUG {service} query SELECT id, name FROM {} WHERE account_id = {} LIMIT {} took {}.{} ms",
            rng.pick(&["orders", "users", "invoices"]),
            rng.below(1_000_000),
            rng.pick(&["10", "50"]),
            rng.below(90),
            rng.below(10)
        )),
    }
    out.push('\n');
}

/// JSON error bodies of web APIs, pretty-printed and compact.
fn json_error(rng: &mut Rng, out: &mut String) {
    match rng.below(4) {
        0 => out.push_str(&format!(
            "{{\"message\":\"Validation Failed\",\"errors\":[{{\"resource\":\"Issue\",\"code\":\"{}\",\"field\":\"{}\"}}],\"documentation_url\":\"https://docs.github.com/rest/issues/issues#create-an-issue\",\"status\":\"422\"}}",
            rng.pick(&["missing_field", "invalid", "already_exists"]),
            rng.pick(&["title", "body", "labels", "assignees"]),
        )),
        1 => out.push_str(&format!(
            "{{\n  \"error\": {{\n    \"type\": \"{}\",\n    \"code\": \"{}\",\n    \"message\": \"No such {}: '{}_{}'\",\n    \"param\": \"{}\",\n    \"request_log_url\": \"https://dashboard.example.com/logs/req_{}?t={}\"\n  }}\n}}",
            rng.pick(&["invalid_request_error", "card_error", "api_error"]),
            rng.pick(&["resource_missing", "parameter_invalid_integer", "card_declined"]),
            rng.pick(&["customer", "invoice", "price"]),
            rng.pick(&["cus", "in", "price"]),
            rng.word(ALNUM, 14),
            rng.pick(&["id", "amount", "currency"]),
            rng.word(ALNUM, 14),
            1_700_000_000 + rng.below(10_000_000),
        )),
        2 => out.push_str(&format!(
            "{{\"__type\":\"{}\",\"Message\":\"User: arn:aws:iam::{}:role/{} is not authorized to perform: {} on resource: arn:aws:s3:::{}\"}}",
            rng.pick(&["AccessDeniedException", "ValidationException", "ThrottlingException"]),
            100_000_000_000usize + rng.below(899_999_999_999),
            rng.pick(&["deployer", "lambda-exec", "ci"]),
            rng.pick(&["s3:GetObject", "dynamodb:PutItem", "sqs:SendMessage"]),
            rng.word(LOWER, 10),
        )),
        _ => out.push_str(&format!(
            "{{\"errors\":[{{\"message\":\"Cannot query field \\\"{}\\\" on type \\\"{}\\\".\",\"locations\":[{{\"line\":{},\"column\":{}}}],\"extensions\":{{\"code\":\"GRAPHQL_VALIDATION_FAILED\"}}}}],\"data\":null}}",
            rng.pick(&["nme", "emial", "creatdAt"]),
            rng.pick(&["User", "Repository", "Order"]),
            1 + rng.below(40),
            1 + rng.below(30),
        )),
    }
    out.push('\n');
}

/// Stack traces of three languages: Java, Python and Node.
fn stack_trace(rng: &mut Rng, out: &mut String) {
    match rng.below(3) {
        0 => {
            let class = rng.pick(&["OrderService", "UserRepository", "PaymentClient", "HttpHandler"]);
            out.push_str(&format!(
                "\tat com.acme.{}.{class}.{}({class}.java:{})\n",
                rng.pick(&["orders", "users", "billing"]),
                rng.pick(&["load", "save", "call", "handle"]),
                1 + rng.below(900)
            ));
            if rng.below(6) == 0 {
                out.push_str(&format!(
                    "Caused by: java.lang.{}: {} {}\n",
                    rng.pick(&["IllegalStateException", "NullPointerException", "IllegalArgumentException"]),
                    rng.pick(WORDS),
                    rng.pick(WORDS)
                ));
            }
        }
        1 => out.push_str(&format!(
            "  File \"/usr/lib/python3.11/site-packages/{}/{}.py\", line {}, in {}\n    {} = {}({})\n",
            rng.pick(&["requests", "django", "sqlalchemy", "app"]),
            rng.pick(&["sessions", "base", "engine", "views"]),
            1 + rng.below(2000),
            rng.pick(&["send", "get_response", "execute", "dispatch"]),
            rng.pick(&["resp", "result", "rows"]),
            rng.pick(&["self.send", "conn.execute", "handler"]),
            rng.pick(&["request", "stmt, params", "**kwargs"]),
        )),
        _ => out.push_str(&format!(
            "    at {} ({}/node_modules/{}/lib/{}.js:{}:{})\n",
            rng.pick(&["processTicksAndRejections", "Layer.handle", "Client.request", "async Promise.all"]),
            rng.pick(&["/app", "/home/node/app"]),
            rng.pick(&["express", "pg", "undici", "@octokit/request"]),
            rng.pick(&["router", "client", "index", "fetch"]),
            1 + rng.below(700),
            1 + rng.below(40),
        )),
    }
}

/// HTML error pages: a proxy's 502, a framework's debug page.
fn html_page(rng: &mut Rng, out: &mut String) {
    match rng.below(5) {
        0 => out.push_str(&format!(
            "<html><head><title>{} {}</title></head><body><center><h1>{} {}</h1></center><hr><center>nginx/1.{}.{}</center></body></html>\n",
            rng.pick(&["502", "503", "504"]),
            "Bad Gateway",
            rng.pick(&["502", "503", "504"]),
            "Bad Gateway",
            20 + rng.below(6),
            rng.below(3)
        )),
        1 => out.push_str(&format!(
            "<tr><th>{}</th><td class=\"code\"><pre>{}</pre></td></tr>\n",
            rng.pick(&["Request Method:", "Request URL:", "Exception Type:", "Python Path:"]),
            rng.pick(&["GET", "http://localhost:8000/orders/?page=2", "KeyError", "['/srv/app', '/usr/lib/python3.11']"]),
        )),
        2 => out.push_str(&format!(
            "<link rel=\"stylesheet\" href=\"/static/css/{}.{}.css\"><script src=\"/static/js/{}.{}.js\" defer></script>\n",
            rng.pick(&["main", "vendor", "theme"]),
            rng.word(HEX, 8),
            rng.pick(&["app", "runtime", "chunk"]),
            rng.word(HEX, 8),
        )),
        3 => out.push_str(&format!(
            "<div class=\"{}\"><p>The server encountered an internal error and was unable to complete your request. See <a href=\"https://status.example.com/incidents/{}\">the status page</a>.</p></div>\n",
            rng.pick(&["error", "container", "alert alert-danger"]),
            rng.word(LOWER, 12)
        )),
        _ => out.push_str(&format!(
            "<li><code>{}</code> in <code>{}</code>, line {}</li>\n",
            rng.pick(&["get_object_or_404", "render", "dispatch", "__getitem__"]),
            rng.pick(&["/srv/app/views.py", "/usr/lib/python3.11/site-packages/django/core/handlers/base.py"]),
            1 + rng.below(500)
        )),
    }
}

/// Shell sessions: `curl -v` exchanges, directory listings, git and npm output.
fn shell_curl(rng: &mut Rng, out: &mut String) {
    match rng.below(9) {
        0 => out.push_str(&format!("*   Trying 10.{}.{}.{}:443...\n", rng.below(255), rng.below(255), rng.below(255))),
        1 => out.push_str(&format!("> {} {} HTTP/2\n> Host: api.example.com\n> user-agent: curl/8.{}.0\n> accept: */*\n", rng.pick(&["GET", "POST"]), rng.pick(PATHS), rng.below(12))),
        2 => out.push_str(&format!(
            "< HTTP/2 {}\n< content-type: application/json; charset=utf-8\n< x-request-id: {}-{}\n< date: Mon, 07 Dec 2026 0{}:1{}:2{} GMT\n",
            rng.pick(&["200", "401", "404", "429", "503"]),
            rng.word(HEX, 8),
            rng.word(HEX, 4),
            rng.below(10),
            rng.below(10),
            rng.below(10)
        )),
        3 => out.push_str(&format!(
            "-rw-r--r--  1 {} staff  {} Dec  {} 1{}:0{} {}.{}\n",
            rng.pick(&["ann", "root", "node"]),
            rng.below(100_000),
            1 + rng.below(28),
            rng.below(10),
            rng.below(10),
            rng.word(LOWER, 7),
            rng.pick(&["ts", "json", "md", "lock"])
        )),
        4 => out.push_str(&format!("commit {}\nAuthor: {} <{}@example.com>\n", rng.word(HEX, 40), rng.pick(&["Ann Lee", "Bo Chen", "Cy Diaz"]), rng.word(LOWER, 5))),
        5 => out.push_str(&format!(
            "npm warn deprecated {}@{}.{}.{}: This package is no longer supported.\n",
            rng.pick(&["inflight", "glob", "rimraf", "uuid"]),
            rng.below(9),
            rng.below(20),
            rng.below(9)
        )),
        6 => out.push_str(&format!("* TLSv1.3 (IN), TLS handshake, {} ({}):\n", rng.pick(&["Finished", "Certificate", "Server hello"]), rng.below(30))),
        7 => out.push_str(&format!("$ ls -la /srv/{}/releases/{}\n", rng.pick(SERVICES), rng.word(HEX, 12))),
        _ => out.push_str(&format!(
            "{{\"id\":{},\"state\":\"{}\",\"updated_at\":\"2026-12-0{}T10:00:00Z\"}}\n",
            rng.below(100_000),
            rng.pick(&["open", "closed"]),
            1 + rng.below(9)
        )),
    }
}

/// Kubernetes objects as `kubectl get -o yaml` prints them, and events.
fn k8s_yaml(rng: &mut Rng, out: &mut String) {
    match rng.below(6) {
        0 => out.push_str(&format!(
            "  - name: {}\n    value: \"{}\"\n",
            rng.pick(&["LOG_LEVEL", "PORT", "REGION", "FEATURE_FLAGS", "WORKERS"]),
            rng.pick(&["info", "8080", "eu-west-1", "search,beta", "4"])
        )),
        1 => out.push_str(&format!(
            "    image: registry.example.com/{}:{}\n    imagePullPolicy: IfNotPresent\n",
            rng.pick(SERVICES),
            rng.word(HEX, 12)
        )),
        2 => out.push_str(&format!(
            "  - lastTransitionTime: \"2026-12-0{}T0{}:00:00Z\"\n    status: \"{}\"\n    type: {}\n",
            1 + rng.below(9),
            rng.below(10),
            rng.pick(&["True", "False"]),
            rng.pick(&["Ready", "PodScheduled", "ContainersReady", "Initialized"])
        )),
        3 => out.push_str(&format!(
            "  labels:\n    app.kubernetes.io/name: {}\n    pod-template-hash: {}\n",
            rng.pick(SERVICES),
            rng.word(&LOWER[..20], 10)
        )),
        4 => out.push_str(&format!(
            "{}s  Warning  {}  pod/{}-{}  {}\n",
            rng.below(600),
            rng.pick(&["BackOff", "FailedMount", "Unhealthy", "FailedScheduling"]),
            rng.pick(SERVICES),
            rng.word(&LOWER[..20], 5),
            rng.pick(&[
                "Back-off restarting failed container",
                "Readiness probe failed: HTTP probe failed with statuscode: 503",
                "0/3 nodes are available: 3 Insufficient cpu.",
            ])
        )),
        _ => out.push_str(&format!(
            "    resources:\n      limits:\n        cpu: {}m\n        memory: {}Mi\n",
            100 * (1 + rng.below(20)),
            128 * (1 + rng.below(16))
        )),
    }
}

/// Clean prose: a project's documentation, with headings, code spans and links.
fn prose(rng: &mut Rng, out: &mut String) {
    match rng.below(10) {
        0 => out.push_str(&format!("\n## {} {}\n\n", rng.pick(&["Configuring", "Running", "Testing"]), rng.pick(WORDS))),
        1 => out.push_str(&format!(
            "See [the {} guide](https://docs.example.com/{}/{}) for `{}` and its options.\n",
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(WORDS),
            rng.pick(&["--retries", "max_items", "timeoutMs"])
        )),
        _ => {
            let n = 12 + rng.below(14);
            for i in 0..n {
                let w = rng.pick(WORDS);
                if i == 0 {
                    out.push_str(&w[..1].to_ascii_uppercase());
                    out.push_str(&w[1..]);
                } else {
                    out.push(' ');
                    out.push_str(w);
                }
            }
            out.push_str(".\n");
        }
    }
}

/// One line with a secret, of a family that changes from one planted secret to the next:
/// provider tokens, credentials in headers, URLs, configuration and commands.
fn secret_line(rng: &mut Rng, out: &mut String, k: usize) {
    let line = match k % 14 {
        0 => format!("export GITHUB_TOKEN=ghp_{}", rng.word(ALNUM, 36)),
        1 => format!("> Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ{}.{}", rng.word(B64URL, 24), rng.word(B64URL, 43)),
        2 => format!("DATABASE_URL=postgres://app:{}@db.internal:5432/prod", rng.word(ALNUM, 16)),
        3 => format!("aws_access_key_id = AKIA{}\naws_secret_access_key = {}", rng.word(UPPER_DIGITS, 16), rng.word(ALNUM, 40)),
        4 => format!(
            "  - name: SLACK_BOT_TOKEN\n    value: xoxb-{}-{}-{}",
            1000 + rng.below(9000),
            100_000 + rng.below(900_000),
            rng.word(ALNUM, 24)
        ),
        5 => format!("{{\"api_key\":\"sk_live_{}\",\"mode\":\"live\"}}", rng.word(ALNUM, 24)),
        6 => format!("password: {}", rng.word(ALNUM, 14)),
        7 => format!("curl -H 'X-Api-Key: {}' https://api.example.com/v1/items", rng.word(HEX, 32)),
        8 => format!("< set-cookie: session={}; Path=/; HttpOnly; Secure", rng.word(B64URL, 32)),
        9 => format!("//registry.npmjs.org/:_authToken=npm_{}", rng.word(ALNUM, 36)),
        10 => format!("GOOGLE_API_KEY=AIza{}", rng.word(B64URL, 35)),
        11 => format!("mysql -u root -p{} -h db.internal", rng.word(ALNUM, 12)),
        12 => format!(
            "https://hooks.slack.com/services/T{}/B{}/{}",
            rng.word(UPPER_DIGITS, 8),
            rng.word(UPPER_DIGITS, 10),
            rng.word(ALNUM, 24)
        ),
        _ => format!("glpat-{} used by the runner", rng.word(B64URL, 20)),
    };
    out.push_str(&line);
    out.push('\n');
}
