//! Provider tokens with documented prefixes, as data: each names the specific family its
//! marker and counts use (`[REDACTED:github_token]`), the alphabet of its body and the
//! shortest body a real one has. Formats are the providers' own published ones. A
//! [`Policy`](crate::Policy) adds formats of the same form ([`TokenFormat`]), compiled
//! into [`CustomTokens`] and looked up by the same first-byte prefilter.

wire_enum! {
    /// Which characters a token's body uses, by the name a policy's `token_formats` give
    /// it (`"alphabet": "alnum"`). A body is the longest run of its characters after the
    /// prefix.
    pub TokenAlphabet {
        /// `[A-Za-z0-9]` (base62)
        Alnum = "alnum",
        /// `[A-Za-z0-9_-]`
        Base64Url = "base64url",
        /// `[A-Za-z0-9_.-]` (Google OAuth access tokens)
        Base64UrlDot = "base64url_dot",
        /// `[A-Za-z0-9_=-]` (a checksum after `=`, as Atlassian writes it)
        Base64UrlEq = "base64url_eq",
        /// `[A-Za-z0-9_]`
        Word = "word",
        /// `[A-Za-z0-9-]`
        AlnumDash = "alnum_dash",
        /// `[A-Z0-9]`
        UpperAlnum = "upper_alnum",
        /// `[0-9a-fA-F]`
        Hex = "hex",
        /// `[A-Za-z0-9+/=_%-]`: base64 in either alphabet, also percent-encoded in a URL
        /// (AWS session tokens, Grafana Cloud tokens).
        Base64 = "base64",
        /// Two `[A-Za-z0-9_-]` segments joined by a dot (SendGrid): the first at least the
        /// shortest body long, the second longer than it.
        TwoSegments = "two_segments",
    }
}

/// The token table's short name for the alphabets.
use TokenAlphabet as Body;

impl TokenAlphabet {
    /// Whether `b` can stand in the body.
    pub(crate) fn accepts(self, b: u8) -> bool {
        match self {
            Body::Alnum => b.is_ascii_alphanumeric(),
            Body::Base64Url | Body::TwoSegments => b.is_ascii_alphanumeric() || b == b'_' || b == b'-',
            Body::Base64UrlDot => b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'),
            Body::Base64UrlEq => b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'='),
            Body::Word => b.is_ascii_alphanumeric() || b == b'_',
            Body::AlnumDash => b.is_ascii_alphanumeric() || b == b'-',
            Body::UpperAlnum => b.is_ascii_uppercase() || b.is_ascii_digit(),
            Body::Hex => b.is_ascii_hexdigit(),
            Body::Base64 => b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-' | b'%'),
        }
    }
}

/// One token format.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    /// The literal the token starts with.
    pub(crate) prefix: &'static str,
    /// The family named in its marker.
    pub(crate) family: &'static str,
    /// Its body's alphabet.
    pub(crate) body: Body,
    /// The shortest body a real token has.
    pub(crate) min: usize,
    /// What a token of a few formats has around its body beyond the run of its alphabet.
    pub(crate) shape: Shape,
}

/// The parts of a built-in token outside the run of its body's alphabet, for the few
/// formats that have them (a policy's formats have none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// The body alone.
    Body,
    /// Up to two dot-separated segments of letters and digits may follow the body:
    /// GitLab's routable tokens, `glpat-<body>.01.<checksum>`.
    DotSegments,
    /// One segment of `[A-Za-z0-9_-]` and a dot may come before the body: Doppler's
    /// service tokens name their config, `dp.st.<config>.<body>`.
    AfterSegment,
}

const fn token(prefix: &'static str, family: &'static str, body: Body, min: usize) -> Token {
    Token { prefix, family, body, min, shape: Shape::Body }
}

/// A token with more than its body after the prefix ([`Shape`]).
const fn shaped(prefix: &'static str, family: &'static str, body: Body, min: usize, shape: Shape) -> Token {
    Token { prefix, family, body, min, shape }
}

/// Every token format, grouped by the prefix's first byte (the scanner indexes the groups),
/// longer prefixes before the shorter ones they start with.
pub(crate) const TOKENS: &[Token] = &[
    // A: AWS access key ids, Atlassian API tokens, age secret keys, JFrog API keys.
    token("AKIA", "aws_access_key_id", Body::UpperAlnum, 16),
    token("ASIA", "aws_access_key_id", Body::UpperAlnum, 16),
    token("ABIA", "aws_access_key_id", Body::UpperAlnum, 16),
    token("ACCA", "aws_access_key_id", Body::UpperAlnum, 16),
    token("AIza", "google_api_key", Body::Base64Url, 35),
    token("ATATT", "atlassian_token", Body::Base64UrlEq, 60),
    token("ATCTT", "atlassian_token", Body::Base64UrlEq, 60),
    token("AGE-SECRET-KEY-1", "age_secret_key", Body::UpperAlnum, 50),
    token("AKCp", "jfrog_key", Body::Alnum, 64),
    // C: Contentful, CircleCI, Clojars.
    token("CFPAT-", "contentful_token", Body::Base64Url, 43),
    token("CCIPAT_", "circleci_token", Body::Word, 60),
    token("CLOJARS_", "clojars_token", Body::Alnum, 60),
    // E: Square production access tokens, Facebook access tokens (`EAA`, a letter, a long
    // base62 body: the shortest of them still runs past a hundred characters).
    token("EAAA", "square_token", Body::Base64Url, 60),
    token("EAAC", "facebook_token", Body::Alnum, 40),
    token("EAAG", "facebook_token", Body::Alnum, 40),
    token("EAA", "facebook_token", Body::Alnum, 100),
    // F: AWS STS session tokens (the older form, `FwoGZXIvYXdzE`: base64 of their header).
    token("FwoGZXIvYXdzE", "aws_session_token", Body::Base64, 60),
    // G: GitLab runner registration tokens, Google OAuth client secrets.
    token("GR1348941", "gitlab_token", Body::Base64Url, 20),
    token("GOCSPX-", "google_client_secret", Body::Base64Url, 24),
    // H: Heroku platform API keys.
    token("HRKU-AA", "heroku_key", Body::Base64Url, 40),
    // I: AWS STS session tokens (`IQoJb3JpZ2luX2Vj`: base64 of their header).
    token("IQoJb3JpZ2luX2Vj", "aws_session_token", Body::Base64, 60),
    // L: Alibaba Cloud access key ids.
    token("LTAI", "alibaba_access_key_id", Body::Alnum, 16),
    // N: New Relic.
    token("NRAK-", "new_relic_key", Body::UpperAlnum, 27),
    token("NRJS-", "new_relic_key", Body::Hex, 19),
    token("NRII-", "new_relic_key", Body::Base64Url, 32),
    // P: Postman.
    token("PMAK-", "postman_key", Body::AlnumDash, 50),
    // S: SendGrid.
    token("SG.", "sendgrid_key", Body::TwoSegments, 16),
    // a: Terraform Cloud, Hugging Face organization tokens.
    token("atlasv1-", "terraform_token", Body::Base64Url, 40),
    token("api_org_", "huggingface_token", Body::Alnum, 30),
    // b: Buildkite.
    token("bkua_", "buildkite_token", Body::Alnum, 40),
    // d: DigitalOcean, Docker Hub, Databricks, Doppler, Dynatrace.
    token("dop_v1_", "digitalocean_token", Body::Hex, 64),
    token("doo_v1_", "digitalocean_token", Body::Hex, 64),
    token("dor_v1_", "digitalocean_token", Body::Hex, 64),
    token("dckr_pat_", "docker_token", Body::Base64Url, 24),
    token("dapi", "databricks_token", Body::Hex, 32),
    token("dp.pt.", "doppler_token", Body::Alnum, 40),
    shaped("dp.st.", "doppler_token", Body::Alnum, 40, Shape::AfterSegment),
    token("dp.sa.", "doppler_token", Body::Alnum, 40),
    token("dp.ct.", "doppler_token", Body::Alnum, 40),
    token("dp.scim.", "doppler_token", Body::Alnum, 40),
    token("dp.audit.", "doppler_token", Body::Alnum, 40),
    token("dt0c01.", "dynatrace_token", Body::TwoSegments, 24),
    // f: Figma, Fly.io, Firecrawl.
    token("figd_", "figma_token", Body::Base64Url, 40),
    token("fo1_", "flyio_token", Body::Base64Url, 40),
    token("fm2_", "flyio_token", Body::Base64, 100),
    token("fm1a_", "flyio_token", Body::Base64, 100),
    token("fm1r_", "flyio_token", Body::Base64, 100),
    token("fc-", "firecrawl_key", Body::Hex, 32),
    // g: GitHub, GitLab, Grafana, Groq.
    token("github_pat_", "github_token", Body::Word, 22),
    token("ghp_", "github_token", Body::Alnum, 36),
    token("gho_", "github_token", Body::Alnum, 36),
    token("ghu_", "github_token", Body::Alnum, 36),
    token("ghs_", "github_token", Body::Alnum, 36),
    token("ghr_", "github_token", Body::Alnum, 36),
    shaped("glpat-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments),
    shaped("glrt-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments),
    shaped("gldt-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments),
    token("glptt-", "gitlab_token", Body::Hex, 40),
    shaped("glcbt-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments),
    shaped("glimt-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments),
    shaped("gloas-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments),
    shaped("glagent-", "gitlab_token", Body::Base64Url, 50, Shape::DotSegments),
    shaped("glsoat-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments),
    shaped("glffct-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments),
    token("glsa_", "grafana_token", Body::Word, 32),
    token("glc_", "grafana_token", Body::Base64, 32),
    shaped("glft-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments),
    token("gsk_", "groq_key", Body::Alnum, 40),
    // h: Hugging Face, HashiCorp Vault.
    token("hf_", "huggingface_token", Body::Alnum, 30),
    token("hvs.", "vault_token", Body::Base64Url, 24),
    token("hvb.", "vault_token", Body::Base64Url, 24),
    token("hvr.", "vault_token", Body::Base64Url, 24),
    // k: Mailgun.
    token("key-", "mailgun_key", Body::Hex, 32),
    // l: Linear, LangSmith.
    token("lin_api_", "linear_key", Body::Alnum, 40),
    token("lsv2_pt_", "langsmith_key", Body::Word, 43),
    token("lsv2_sk_", "langsmith_key", Body::Word, 43),
    // n: npm, Notion, NVIDIA, Netlify.
    token("npm_", "npm_token", Body::Alnum, 36),
    token("ntn_", "notion_token", Body::Alnum, 40),
    token("nvapi-", "nvidia_key", Body::Base64Url, 64),
    token("nfp_", "netlify_token", Body::Word, 36),
    // o: NuGet, 1Password service accounts.
    token("oy2", "nuget_key", Body::Alnum, 43),
    token("ops_eyJ", "onepassword_token", Body::Base64, 200),
    // p: PyPI, PlanetScale, Perplexity, Pulumi, PostHog, Airtable.
    token("pypi-", "pypi_token", Body::Base64Url, 50),
    token("pscale_tkn_", "planetscale_token", Body::Base64Url, 32),
    token("pscale_oauth_", "planetscale_token", Body::Base64Url, 32),
    token("pscale_pw_", "planetscale_token", Body::Base64Url, 32),
    token("pplx-", "perplexity_key", Body::Alnum, 40),
    token("pul-", "pulumi_token", Body::Hex, 40),
    token("phx_", "posthog_key", Body::Word, 43),
    // r: Stripe restricted keys, Replicate, RubyGems, Render.
    token("rk_live_", "stripe_key", Body::Alnum, 16),
    token("rk_test_", "stripe_key", Body::Alnum, 16),
    token("r8_", "replicate_token", Body::Alnum, 30),
    token("rubygems_", "rubygems_key", Body::Hex, 48),
    token("rnd_", "render_key", Body::Alnum, 24),
    // s: Anthropic, OpenAI (and the keys in its format), Stripe, Shopify, Sentry, Supabase,
    // Mapbox, Dropbox, Sourcegraph.
    token("sk-ant-", "anthropic_key", Body::Base64Url, 32),
    token("sk-or-v1-", "openrouter_key", Body::Hex, 64),
    token("sk-lf-", "langfuse_key", Body::AlnumDash, 32),
    token("sk-", "openai_key", Body::Base64Url, 20),
    token("sk_live_", "stripe_key", Body::Alnum, 16),
    token("sk_test_", "stripe_key", Body::Alnum, 16),
    token("sk.eyJ", "mapbox_token", Body::TwoSegments, 20),
    token("shpat_", "shopify_token", Body::Hex, 32),
    token("shpca_", "shopify_token", Body::Hex, 32),
    token("shppa_", "shopify_token", Body::Hex, 32),
    token("shpss_", "shopify_token", Body::Hex, 32),
    // Sentry organization tokens: base64 of their claims (`+`, `/`, `=`), `_`, a secret.
    token("sntrys_", "sentry_token", Body::Base64, 60),
    token("sntryu_", "sentry_token", Body::Hex, 64),
    token("sbp_", "supabase_token", Body::Hex, 40),
    token("sb_secret_", "supabase_token", Body::Base64Url, 24),
    // Notion's integration tokens before `ntn_`: `secret_` and 43 letters and digits.
    token("secret_", "notion_token", Body::Alnum, 43),
    token("sq0atp-", "square_token", Body::Base64Url, 22),
    token("sq0csp-", "square_token", Body::Base64Url, 40),
    token("sgp_", "sourcegraph_token", Body::Word, 40),
    // Dropbox short-lived access tokens: `sl.` (or `sl.u.`) and 130 or more characters.
    token("sl.u.", "dropbox_token", Body::Base64Url, 130),
    token("sl.", "dropbox_token", Body::Base64Url, 130),
    // t: Tailscale (`tskey-auth-`, `tskey-api-`, `tskey-client-`, ...), Tavily.
    token("tskey-", "tailscale_key", Body::Base64Url, 30),
    token("tvly-", "tavily_key", Body::AlnumDash, 30),
    // w: Stripe webhook signing secrets.
    token("whsec_", "stripe_webhook_secret", Body::Base64Url, 24),
    // x: Slack (`xoxd-` is the `d` cookie of a browser session, URL-encoded base64), xAI,
    // Brevo.
    token("xoxa-", "slack_token", Body::AlnumDash, 10),
    token("xoxb-", "slack_token", Body::AlnumDash, 10),
    token("xoxp-", "slack_token", Body::AlnumDash, 10),
    token("xoxo-", "slack_token", Body::AlnumDash, 10),
    token("xoxr-", "slack_token", Body::AlnumDash, 10),
    token("xoxs-", "slack_token", Body::AlnumDash, 10),
    token("xoxe-", "slack_token", Body::AlnumDash, 10),
    token("xoxc-", "slack_token", Body::AlnumDash, 10),
    token("xoxd-", "slack_token", Body::Base64, 40),
    token("xoxe.xox", "slack_token", Body::AlnumDash, 10),
    token("xapp-", "slack_token", Body::AlnumDash, 10),
    token("xai-", "xai_key", Body::Alnum, 40),
    token("xkeysib-", "brevo_key", Body::AlnumDash, 80),
    token("xsmtpsib-", "brevo_key", Body::AlnumDash, 80),
    // 1: Google OAuth refresh tokens.
    token("1//0", "google_oauth_token", Body::Base64Url, 40),
    // y: Google OAuth access tokens.
    token("ya29.", "google_oauth_token", Body::Base64UrlDot, 30),
];

/// For each byte, the range of [`TOKENS`] whose prefix starts with it: `(start, count)`.
pub(crate) const BY_FIRST_BYTE: [(u8, u8); 256] = {
    let mut index = [(0u8, 0u8); 256];
    let mut k = 0;
    while k < TOKENS.len() {
        let b = TOKENS[k].prefix.as_bytes()[0] as usize;
        if index[b].1 == 0 {
            index[b].0 = k as u8;
        }
        index[b].1 += 1;
        k += 1;
    }
    index
};

/// For each first byte of a prefix, the set of bytes that follow it in some prefix (a bit
/// per byte value): a candidate whose second byte is not in its set is ruled out at once.
pub(crate) const SECOND_BYTES: [[u64; 4]; 256] = {
    let mut sets = [[0u64; 4]; 256];
    let mut k = 0;
    while k < TOKENS.len() {
        let prefix = TOKENS[k].prefix.as_bytes();
        let (first, second) = (prefix[0] as usize, prefix[1] as usize);
        sets[first][second >> 6] |= 1 << (second & 63);
        k += 1;
    }
    sets
};

/// Whether `b` can stand in a token: every prefix and body byte of [`TOKENS`] is one.
pub(crate) const fn in_token_run(b: u8) -> bool {
    b.is_ascii_alphanumeric() | matches!(b, b'_' | b'-' | b'.' | b'=' | b'+' | b'/' | b'%')
}

/// The length of the shortest token of any format (prefix and shortest body).
pub(crate) const SHORTEST_TOKEN: usize = {
    let mut shortest = usize::MAX;
    let mut k = 0;
    while k < TOKENS.len() {
        let len = TOKENS[k].prefix.len() + TOKENS[k].min;
        if len < shortest {
            shortest = len;
        }
        k += 1;
    }
    shortest
};

/// Whether some prefix starts with the bytes `first`, `second`.
pub(crate) fn starts_some_prefix(first: u8, second: u8) -> bool {
    SECOND_BYTES[usize::from(first)][usize::from(second >> 6)] & (1 << (second & 63)) != 0
}

/// The formats whose prefix starts with `b`.
pub(crate) fn starting_with(b: u8) -> &'static [Token] {
    let (start, count) = BY_FIRST_BYTE[usize::from(b)];
    &TOKENS[usize::from(start)..usize::from(start) + usize::from(count)]
}

/// Whether some built-in format's prefix starts with each byte.
pub(crate) const FIRST_BYTES: [bool; 256] = {
    let mut first = [false; 256];
    let mut b = 0;
    while b < 256 {
        first[b] = BY_FIRST_BYTE[b].1 != 0;
        b += 1;
    }
    first
};

/// A token format a policy adds, in the built-in table's form: the literal its tokens
/// start with, the family their marker and counts name, the body's alphabet and the
/// shortest body a real token has. There is no pattern language: a format is matched as
/// the built-in ones are, in the same pass over the text, so redaction stays linear.
///
/// ```
/// use codemode_errors::{Normalizer, Policy, TokenAlphabet, TokenFormat};
/// let acme = TokenFormat { family: "acme_token".into(), prefix: "acme_".into(), alphabet: TokenAlphabet::Alnum, min_body_length: 24 };
/// let normalizer = Normalizer::new(Policy::default().with_token_format(acme)?);
/// assert_eq!(normalizer.redact_text("sent acme_0123456789abcdefghijklmn twice"), "sent [REDACTED:acme_token] twice");
/// # Ok::<(), codemode_errors::ReportError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenFormat {
    /// The family named in the marker and counted in `evidence.redactions`:
    /// `[a-z][a-z0-9_]{0,31}`, not itself redacted by the rules in force.
    pub family: String,
    /// The literal every token starts with, case-sensitive: 3 to 32 of `[A-Za-z0-9_.=+/%-]`.
    /// A prefix of 4 or more characters not ending in `-` is found even glued to a word
    /// (`xacme_…`); a shorter one needs a word boundary before it, as built-in ones do.
    pub prefix: String,
    /// The body's alphabet.
    pub alphabet: TokenAlphabet,
    /// The shortest body (after the prefix) a real token has: 8 to 256.
    pub min_body_length: u32,
}

/// Prefix lengths a policy's format may have, in bytes.
pub(crate) const PREFIX_LENGTHS: std::ops::RangeInclusive<usize> = 3..=32;

/// Shortest bodies a policy's format may require.
pub(crate) const MIN_BODY_LENGTHS: std::ops::RangeInclusive<u32> = 8..=256;

/// Longest family name of a policy's format.
pub(crate) const MAX_FAMILY: usize = 32;

impl TokenFormat {
    /// What is wrong with this format, as the member at fault and why; `None` when it is
    /// well formed.
    pub(crate) fn problem(&self) -> Option<(&'static str, String)> {
        let family = self.family.as_bytes();
        let family_ok = family.first().is_some_and(u8::is_ascii_lowercase)
            && family.len() <= MAX_FAMILY
            && family.iter().all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !family_ok {
            return Some(("family", format!("must be 1 to {MAX_FAMILY} of [a-z0-9_], starting with a letter")));
        }
        if !PREFIX_LENGTHS.contains(&self.prefix.len()) || !self.prefix.bytes().all(in_token_run) {
            let (lo, hi) = (PREFIX_LENGTHS.start(), PREFIX_LENGTHS.end());
            return Some(("prefix", format!("must be {lo} to {hi} of [A-Za-z0-9_.=+/%-]")));
        }
        if !MIN_BODY_LENGTHS.contains(&self.min_body_length) {
            let (lo, hi) = (MIN_BODY_LENGTHS.start(), MIN_BODY_LENGTHS.end());
            return Some(("min_body_length", format!("must be a whole number from {lo} to {hi}")));
        }
        None
    }
}

/// A policy's token formats compiled for the scanner: their prefixes in a trie, so the
/// formats that may start at a place are found in one walk of at most the longest prefix
/// (however many formats share their first bytes), and the first bytes of every format,
/// built-in or the policy's, in one table the scanner's skip loop reads.
#[derive(Clone, Debug)]
pub(crate) struct CustomTokens {
    formats: Vec<TokenFormat>,
    /// The prefixes' trie; node 0 is the root. Empty when there are no formats.
    trie: Vec<TrieNode>,
    /// Whether some format, built-in or the policy's, starts with each byte.
    first_bytes: [bool; 256],
    /// Whether some format of the policy's starts with each byte.
    policy_first_bytes: [bool; 256],
    /// The length of the shortest token of any format, built-in or the policy's.
    shortest: usize,
}

/// One node of the prefix trie: the bytes that continue a prefix from here (sorted, each
/// with its node), and the format whose prefix ends here.
#[derive(Clone, Debug, Default)]
struct TrieNode {
    next: Vec<(u8, u16)>,
    format: Option<u8>,
}

/// The most formats whose prefixes can all start at one place: one per prefix length.
pub(crate) const MAX_NESTED_PREFIXES: usize = *PREFIX_LENGTHS.end();

impl CustomTokens {
    /// No formats beyond the built-in ones.
    pub(crate) const NONE: CustomTokens = CustomTokens {
        formats: Vec::new(),
        trie: Vec::new(),
        first_bytes: FIRST_BYTES,
        policy_first_bytes: [false; 256],
        shortest: SHORTEST_TOKEN,
    };

    /// Compile well-formed formats (at most 255, with distinct prefixes).
    pub(crate) fn new(formats: &[TokenFormat]) -> Self {
        let formats: Vec<TokenFormat> = formats.iter().take(255).cloned().collect();
        let mut trie = vec![TrieNode::default()];
        let mut first_bytes = FIRST_BYTES;
        let mut policy_first_bytes = [false; 256];
        let mut shortest = SHORTEST_TOKEN;
        for (k, f) in formats.iter().enumerate() {
            shortest = shortest.min(f.prefix.len() + f.min_body_length as usize);
            first_bytes[usize::from(f.prefix.as_bytes()[0])] = true;
            policy_first_bytes[usize::from(f.prefix.as_bytes()[0])] = true;
            let mut node = 0;
            for &b in f.prefix.as_bytes().iter().take(MAX_NESTED_PREFIXES) {
                node = match trie[node].next.binary_search_by_key(&b, |&(c, _)| c) {
                    Ok(at) => usize::from(trie[node].next[at].1),
                    Err(at) => {
                        // At most 255 prefixes of at most 32 bytes: the nodes fit a u16.
                        let child = trie.len();
                        trie[node].next.insert(at, (b, child as u16));
                        trie.push(TrieNode::default());
                        child
                    }
                };
            }
            trie[node].format = Some(k as u8);
        }
        CustomTokens { formats, trie, first_bytes, policy_first_bytes, shortest }
    }

    /// The length of the shortest token of any format, built-in or the policy's: a run of
    /// token bytes shorter than this holds none.
    pub(crate) fn shortest(&self) -> usize {
        self.shortest
    }

    /// Whether the policy adds formats.
    pub(crate) fn adds_formats(&self) -> bool {
        !self.formats.is_empty()
    }

    /// Whether some format of the policy's has a prefix starting with `b`.
    pub(crate) fn policy_starts_with(&self, b: u8) -> bool {
        self.policy_first_bytes[usize::from(b)]
    }

    /// The format with this index (as [`CustomTokens::prefixes_of`] gives them).
    pub(crate) fn format(&self, k: u8) -> Option<&TokenFormat> {
        self.formats.get(usize::from(k))
    }

    /// The indexes of the policy's formats whose prefix `text` starts with, shortest
    /// prefix first, into `found`; how many there are. One step per byte of the longest
    /// such prefix.
    pub(crate) fn prefixes_of(&self, text: &[u8], found: &mut [u8; MAX_NESTED_PREFIXES]) -> usize {
        let mut node = 0;
        let mut n = 0;
        for &b in text.iter().take(MAX_NESTED_PREFIXES) {
            let Some(here) = self.trie.get(node) else { break };
            match here.next.binary_search_by_key(&b, |&(c, _)| c) {
                Ok(at) => node = usize::from(here.next[at].1),
                Err(_) => break,
            }
            crate::search::work::tally(1);
            if let Some(k) = self.trie[node].format {
                found[n] = k;
                n += 1;
            }
        }
        n
    }

    /// Whether some format, built-in or the policy's, has a prefix starting with each byte.
    pub(crate) fn first_bytes(&self) -> &[bool; 256] {
        &self.first_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_grouped_by_first_byte_and_longest_prefix_first() {
        assert!(TOKENS.len() < 256);
        for (i, t) in TOKENS.iter().enumerate() {
            let group = starting_with(t.prefix.as_bytes()[0]);
            assert!(group.iter().any(|g| g.prefix == t.prefix), "{} is outside its first-byte group", t.prefix);
            for earlier in &TOKENS[..i] {
                assert!(!t.prefix.starts_with(earlier.prefix), "{} is shadowed by the earlier {}", t.prefix, earlier.prefix);
            }
            assert!(t.family.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{}", t.family);
            assert!(starts_some_prefix(t.prefix.as_bytes()[0], t.prefix.as_bytes()[1]), "{}", t.prefix);
        }
        assert!(!starts_some_prefix(b's', b'z') && !starts_some_prefix(b'q', b'q'));
        // A token never leaves a run of token bytes: the scanner looks only inside runs.
        for t in TOKENS {
            assert!(t.prefix.bytes().all(in_token_run), "{}", t.prefix);
            assert!((0..=255u8).filter(|&b| t.body.accepts(b)).all(in_token_run), "{:?}", t.body);
            assert!(t.prefix.len() + t.min >= SHORTEST_TOKEN);
        }
        const { assert!(SHORTEST_TOKEN >= 8) };
        let grouped: usize = (0..=255u8).map(|b| starting_with(b).len()).sum();
        assert_eq!(grouped, TOKENS.len(), "a first byte's formats are not contiguous");
        assert!((0..=255u8).all(|b| FIRST_BYTES[usize::from(b)] != starting_with(b).is_empty()));
        // Every alphabet a policy can name stays inside a run of token bytes too.
        for alphabet in TokenAlphabet::ALL {
            assert!((0..=255u8).filter(|&b| alphabet.accepts(b)).all(in_token_run), "{alphabet}");
        }
    }

    fn format(family: &str, prefix: &str, min_body_length: u32) -> TokenFormat {
        TokenFormat { family: family.into(), prefix: prefix.into(), alphabet: TokenAlphabet::Alnum, min_body_length }
    }

    #[test]
    fn a_policy_format_is_checked_member_by_member() {
        assert_eq!(format("acme_token", "acme_", 24).problem(), None);
        assert_eq!(format("a", "x9.", 8).problem(), None);
        for (bad, member) in [
            (format("", "acme_", 24), "family"),
            (format("Acme", "acme_", 24), "family"),
            (format("9acme", "acme_", 24), "family"),
            (format("acme-token", "acme_", 24), "family"),
            (format(&"a".repeat(33), "acme_", 24), "family"),
            (format("acme", "ac", 24), "prefix"),
            (format("acme", "acme key", 24), "prefix"),
            (format("acme", &"a".repeat(33), 24), "prefix"),
            (format("acme", "acmé_", 24), "prefix"),
            (format("acme", "acme_", 7), "min_body_length"),
            (format("acme", "acme_", 257), "min_body_length"),
        ] {
            assert_eq!(bad.problem().map(|(m, _)| m), Some(member), "{bad:?}");
        }
    }

    #[test]
    fn policy_formats_are_found_by_their_prefixes_in_one_walk() {
        let custom =
            CustomTokens::new(&[format("a", "acme_", 8), format("b", "zz_", 8), format("c", "acme_live_", 8), format("d", "acm", 8)]);
        let found = |text: &str| {
            let mut found = [0; MAX_NESTED_PREFIXES];
            let n = custom.prefixes_of(text.as_bytes(), &mut found);
            found[..n].iter().map(|&k| custom.format(k).map_or("", |f| f.prefix.as_str())).collect::<Vec<_>>()
        };
        assert_eq!(found("acme_live_0123"), ["acm", "acme_", "acme_live_"]);
        assert_eq!(found("acme_test"), ["acm", "acme_"]);
        assert_eq!(found("zz_x"), ["zz_"]);
        assert!(found("zz").is_empty() && found("acx").is_empty() && found("q").is_empty());
        assert!(
            custom.first_bytes()[usize::from(b'z')] && custom.first_bytes()[usize::from(b'g')] && !custom.first_bytes()[usize::from(b'q')]
        );
        assert!(custom.policy_starts_with(b'a') && !custom.policy_starts_with(b'g'));
        let mut none = [0; MAX_NESTED_PREFIXES];
        assert_eq!(CustomTokens::NONE.prefixes_of(b"acme_", &mut none), 0);
        assert_eq!(custom.shortest(), SHORTEST_TOKEN.min(3 + 8));
    }
}
