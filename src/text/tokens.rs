//! Provider tokens with documented prefixes, as data: each names the specific family its
//! marker and counts use (`[REDACTED:github_token]`), the alphabet of its body and the
//! shortest body a real one has. Formats are the providers' own published ones.

/// Which characters a token's body uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    /// `[A-Za-z0-9]`
    Alnum,
    /// `[A-Za-z0-9_-]`
    Base64Url,
    /// `[A-Za-z0-9_.-]` (Google OAuth access tokens)
    Base64UrlDot,
    /// `[A-Za-z0-9_=-]` (a checksum after `=`, as Atlassian writes it)
    Base64UrlEq,
    /// `[A-Za-z0-9_]`
    Word,
    /// `[A-Za-z0-9-]`
    AlnumDash,
    /// `[A-Z0-9]`
    UpperAlnum,
    /// `[0-9a-fA-F]`
    Hex,
    /// `[A-Za-z0-9+/=_%-]`: base64 in either alphabet, also percent-encoded in a URL
    /// (AWS session tokens, Grafana Cloud tokens).
    Base64,
    /// Two `[A-Za-z0-9_-]` segments joined by a dot (SendGrid).
    TwoSegments,
}

impl Body {
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
}

const fn token(prefix: &'static str, family: &'static str, body: Body, min: usize) -> Token {
    Token { prefix, family, body, min }
}

/// Every token format, grouped by the prefix's first byte (the scanner indexes the groups),
/// longer prefixes before the shorter ones they start with.
pub(crate) const TOKENS: &[Token] = &[
    // A: AWS access key ids, Atlassian API tokens, age secret keys.
    token("AKIA", "aws_access_key_id", Body::UpperAlnum, 16),
    token("ASIA", "aws_access_key_id", Body::UpperAlnum, 16),
    token("ABIA", "aws_access_key_id", Body::UpperAlnum, 16),
    token("ACCA", "aws_access_key_id", Body::UpperAlnum, 16),
    token("AIza", "google_api_key", Body::Base64Url, 35),
    token("ATATT", "atlassian_token", Body::Base64UrlEq, 60),
    token("AGE-SECRET-KEY-1", "age_secret_key", Body::UpperAlnum, 50),
    // E: Square production access tokens, Facebook access tokens.
    token("EAAA", "square_token", Body::Base64Url, 60),
    token("EAAC", "facebook_token", Body::Alnum, 40),
    token("EAAG", "facebook_token", Body::Alnum, 40),
    // F: AWS STS session tokens (the older form, `FwoGZXIvYXdzE`: base64 of their header).
    token("FwoGZXIvYXdzE", "aws_session_token", Body::Base64, 60),
    // G: GitLab runner registration tokens, Google OAuth client secrets.
    token("GR1348941", "gitlab_token", Body::Base64Url, 20),
    token("GOCSPX-", "google_client_secret", Body::Base64Url, 24),
    // H: Heroku platform API keys.
    token("HRKU-AA", "heroku_key", Body::Base64Url, 40),
    // I: AWS STS session tokens (`IQoJb3JpZ2luX2Vj`: base64 of their header).
    token("IQoJb3JpZ2luX2Vj", "aws_session_token", Body::Base64, 60),
    // N: New Relic.
    token("NRAK-", "new_relic_key", Body::UpperAlnum, 27),
    token("NRJS-", "new_relic_key", Body::Hex, 19),
    token("NRII-", "new_relic_key", Body::Base64Url, 32),
    // P: Postman.
    token("PMAK-", "postman_key", Body::AlnumDash, 50),
    // S: SendGrid.
    token("SG.", "sendgrid_key", Body::TwoSegments, 16),
    // a
    token("atlasv1-", "terraform_token", Body::Base64Url, 40),
    // d: DigitalOcean, Docker Hub, Databricks, Doppler.
    token("dop_v1_", "digitalocean_token", Body::Hex, 64),
    token("doo_v1_", "digitalocean_token", Body::Hex, 64),
    token("dor_v1_", "digitalocean_token", Body::Hex, 64),
    token("dckr_pat_", "docker_token", Body::Base64Url, 24),
    token("dapi", "databricks_token", Body::Hex, 32),
    token("dp.pt.", "doppler_token", Body::Alnum, 40),
    token("dp.st.", "doppler_token", Body::Alnum, 40),
    token("dp.sa.", "doppler_token", Body::Alnum, 40),
    token("dp.ct.", "doppler_token", Body::Alnum, 40),
    token("dp.scim.", "doppler_token", Body::Alnum, 40),
    token("dp.audit.", "doppler_token", Body::Alnum, 40),
    // f: Figma, Fly.io.
    token("figd_", "figma_token", Body::Base64Url, 40),
    token("fo1_", "flyio_token", Body::Base64Url, 40),
    // g: GitHub, GitLab, Grafana, Groq.
    token("github_pat_", "github_token", Body::Word, 22),
    token("ghp_", "github_token", Body::Alnum, 36),
    token("gho_", "github_token", Body::Alnum, 36),
    token("ghu_", "github_token", Body::Alnum, 36),
    token("ghs_", "github_token", Body::Alnum, 36),
    token("ghr_", "github_token", Body::Alnum, 36),
    token("glpat-", "gitlab_token", Body::Base64Url, 20),
    token("glrt-", "gitlab_token", Body::Base64Url, 20),
    token("gldt-", "gitlab_token", Body::Base64Url, 20),
    token("glptt-", "gitlab_token", Body::Hex, 40),
    token("glcbt-", "gitlab_token", Body::Base64Url, 20),
    token("glimt-", "gitlab_token", Body::Base64Url, 20),
    token("gloas-", "gitlab_token", Body::Base64Url, 20),
    token("glsa_", "grafana_token", Body::Word, 32),
    token("glc_", "grafana_token", Body::Base64, 32),
    token("glft-", "gitlab_token", Body::Base64Url, 20),
    token("gsk_", "groq_key", Body::Alnum, 40),
    // h: Hugging Face, HashiCorp Vault.
    token("hf_", "huggingface_token", Body::Alnum, 30),
    token("hvs.", "vault_token", Body::Base64Url, 24),
    token("hvb.", "vault_token", Body::Base64Url, 24),
    token("hvr.", "vault_token", Body::Base64Url, 24),
    // k: Mailgun.
    token("key-", "mailgun_key", Body::Hex, 32),
    // l: Linear.
    token("lin_api_", "linear_key", Body::Alnum, 40),
    // n: npm, Notion.
    token("npm_", "npm_token", Body::Alnum, 36),
    token("ntn_", "notion_token", Body::Alnum, 40),
    // o: NuGet.
    token("oy2", "nuget_key", Body::Alnum, 43),
    // p: PyPI, PlanetScale, Perplexity, Pulumi.
    token("pypi-", "pypi_token", Body::Base64Url, 50),
    token("pscale_tkn_", "planetscale_token", Body::Base64Url, 32),
    token("pscale_oauth_", "planetscale_token", Body::Base64Url, 32),
    token("pscale_pw_", "planetscale_token", Body::Base64Url, 32),
    token("pplx-", "perplexity_key", Body::Alnum, 40),
    token("pul-", "pulumi_token", Body::Hex, 40),
    // r: Stripe restricted keys, Replicate, RubyGems.
    token("rk_live_", "stripe_key", Body::Alnum, 16),
    token("rk_test_", "stripe_key", Body::Alnum, 16),
    token("r8_", "replicate_token", Body::Alnum, 30),
    token("rubygems_", "rubygems_key", Body::Hex, 48),
    // s: Anthropic, OpenAI (and the keys in its format), Stripe, Shopify, Sentry, Supabase.
    token("sk-ant-", "anthropic_key", Body::Base64Url, 32),
    token("sk-or-v1-", "openrouter_key", Body::Hex, 64),
    token("sk-", "openai_key", Body::Base64Url, 20),
    token("sk_live_", "stripe_key", Body::Alnum, 16),
    token("sk_test_", "stripe_key", Body::Alnum, 16),
    token("shpat_", "shopify_token", Body::Hex, 32),
    token("shpca_", "shopify_token", Body::Hex, 32),
    token("shppa_", "shopify_token", Body::Hex, 32),
    token("shpss_", "shopify_token", Body::Hex, 32),
    token("sntrys_", "sentry_token", Body::Base64UrlDot, 60),
    token("sntryu_", "sentry_token", Body::Hex, 64),
    token("sbp_", "supabase_token", Body::Hex, 40),
    // Notion's integration tokens before `ntn_`: `secret_` and 43 letters and digits.
    token("secret_", "notion_token", Body::Alnum, 43),
    token("sq0atp-", "square_token", Body::Base64Url, 22),
    token("sq0csp-", "square_token", Body::Base64Url, 40),
    // w: Stripe webhook signing secrets.
    token("whsec_", "stripe_webhook_secret", Body::Base64Url, 24),
    // x: Slack, xAI.
    token("xoxa-", "slack_token", Body::AlnumDash, 10),
    token("xoxb-", "slack_token", Body::AlnumDash, 10),
    token("xoxp-", "slack_token", Body::AlnumDash, 10),
    token("xoxo-", "slack_token", Body::AlnumDash, 10),
    token("xoxr-", "slack_token", Body::AlnumDash, 10),
    token("xoxs-", "slack_token", Body::AlnumDash, 10),
    token("xoxe-", "slack_token", Body::AlnumDash, 10),
    token("xoxe.xox", "slack_token", Body::AlnumDash, 10),
    token("xapp-", "slack_token", Body::AlnumDash, 10),
    token("xai-", "xai_key", Body::Alnum, 40),
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
pub(crate) fn in_token_run(b: u8) -> bool {
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
        assert!(SHORTEST_TOKEN >= 8, "{SHORTEST_TOKEN}");
        let grouped: usize = (0..=255u8).map(|b| starting_with(b).len()).sum();
        assert_eq!(grouped, TOKENS.len(), "a first byte's formats are not contiguous");
    }
}
