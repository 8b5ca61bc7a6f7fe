//! Provider tokens with documented prefixes, as data: each names the specific family its
//! marker and counts use (`[REDACTED:github_token]`), the alphabet of its body and the
//! shortest body a real one has. Formats are the providers' own published ones. A
//! [`Policy`](crate::Policy) adds formats of the same form ([`TokenFormat`]), compiled
//! into [`CustomTokens`] and looked up by the same first-byte prefilter.

wire_enum! {
    /// Which characters a token's body uses, by the name a policy's `token_formats` give
    /// it (`"alphabet": "alnum"`). A body is the longest run of its characters after the
    /// prefix.
    ///
    /// ```
    /// use codemode_errors::{Normalizer, Policy, TokenAlphabet, TokenFormat};
    /// let alphabet = TokenAlphabet::from_wire("hex").unwrap();
    /// let format = TokenFormat { family: "acme_key".into(), prefix: "acmk_".into(), alphabet, min_body_length: 16 };
    /// let normalizer = Normalizer::new(Policy::default().with_token_format(format)?);
    /// assert_eq!(normalizer.redact_text("key acmk_0123456789abcdef0123"), "key [REDACTED:acme_key]");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
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
    /// A token of this format, in the provider's published shape with a made-up body: the
    /// record's test redacts it whole as its family, in every placement of
    /// `tests::PLACEMENTS`, and keeps it (as this family) once its body is cut below `min`.
    /// Test builds only: the product carries no example bytes.
    #[cfg(test)]
    pub(crate) example: &'static str,
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

const fn token(prefix: &'static str, family: &'static str, body: Body, min: usize, example: &'static str) -> Token {
    let _ = example;
    Token {
        prefix,
        family,
        body,
        min,
        shape: Shape::Body,
        #[cfg(test)]
        example,
    }
}

/// A token with more than its body after the prefix ([`Shape`]).
const fn shaped(prefix: &'static str, family: &'static str, body: Body, min: usize, shape: Shape, example: &'static str) -> Token {
    let _ = example;
    Token {
        prefix,
        family,
        body,
        min,
        shape,
        #[cfg(test)]
        example,
    }
}

/// Every token format, grouped by the prefix's first byte (the scanner indexes the groups),
/// longer prefixes before the shorter ones they start with.
///
/// A new provider format is one record here, with its example (CONTRIBUTING.md, "Add a
/// token family"): the prefix, the family its marker names, the body's alphabet, the
/// shortest body, and a token of that shape. `tests::every_record_redacts_its_example`
/// is its test; the scanner, the prefilter tables below and the npm package follow from
/// the record.
pub(crate) const TOKENS: &[Token] = &[
    // A: AWS access key ids, Atlassian API tokens, age secret keys, JFrog API keys.
    token("AKIA", "aws_access_key_id", Body::UpperAlnum, 16, "AKIAQXA0847AV2VM5TWH471I87"),
    token("ASIA", "aws_access_key_id", Body::UpperAlnum, 16, "ASIAQ4ZGEKFDJ57IWLULQAM157"),
    token("ABIA", "aws_access_key_id", Body::UpperAlnum, 16, "ABIAQI4WA01HA0N3FMRL6MZHZ7"),
    token("ACCA", "aws_access_key_id", Body::UpperAlnum, 16, "ACCAQAIIOK890D8SREJRB7OL27"),
    token("AIza", "google_api_key", Body::Base64Url, 35, "AIzaQTy-h8oyhhY2fOCcqTriUE14LzwZBURyxsQ0U3kj7"),
    token("ATATT", "atlassian_token", Body::Base64UrlEq, 60,
        "ATATTQQVSrsTa0t1AaY-w4RF-H5Ja82GBG0rs4jo_1l92M-E4U_e3CSmZXaCeOVScQFymA7"),
    token("ATCTT", "atlassian_token", Body::Base64UrlEq, 60,
        "ATCTTQW8kiBiHzwPMvqQ9RYaSH1dkUv8j8tokCgpg0lkTAhN-yW3M1RMeljK-C_-bS9eWb7"),
    token("AGE-SECRET-KEY-1", "age_secret_key", Body::UpperAlnum, 50,
        "AGE-SECRET-KEY-1Q8ATP9DUR4KMI9L5JO0LILQI36JJN3C7MDR6U81BAG7CHV77S42UDOO7"),
    token("AKCp", "jfrog_key", Body::Alnum, 64,
        "AKCpQvvlRGgjOqcDLrJCgBrcO9S9pgdvgnO5nBukIPR3jDdmSABpabM3EPBdOz7NlcQ9oH7up7"),
    // C: Contentful, CircleCI, Clojars.
    token("CFPAT-", "contentful_token", Body::Base64Url, 43, "CFPAT-QM69miAE0brStxJUbtE9izGO0yqeOJhJ3bTMMbMelkUhxjWD7"),
    token("CCIPAT_", "circleci_token", Body::Word, 60,
        "CCIPAT_QOJ54HiAbXJDvBZA8iP1WsxM8Zju7i222BDgS2MtliP42qjEe0Jz9MOXyX36xXdfO7"),
    token("CLOJARS_", "clojars_token", Body::Alnum, 60,
        "CLOJARS_Q7go6O3aAE2oqih7lp3p1YIHztlaih5fcPuHeJNnPRfXD8mMk4nO9zjR2F6q9nSvR7"),
    // E: Square production access tokens, Facebook access tokens (`EAA`, a letter, a long
    // base62 body: the shortest of them still runs past a hundred characters).
    token("EAAA", "square_token", Body::Base64Url, 60,
        "EAAAQ913XJ2LGMdFQfMmyw7NfKxUBDrB2MU-l8vIgidxDhAiJWmqNrA-w55JucyYqR6-w7"),
    token("EAAC", "facebook_token", Body::Alnum, 40, "EAACQFE6JHf4O7nSY3UBRE6QaE4G22a0NMGqltojcGmoPGOCG7"),
    token("EAAG", "facebook_token", Body::Alnum, 40, "EAAGQQnFE1oLmHyQRX1q9CvkAF1zCDB76mn8O73EODWnYOrKF7"),
    token("EAA", "facebook_token", Body::Alnum, 100,
        "EAAQbhRaOxHt4P82OEwdcCJAPeldD7PNUGNURjudGWH3HaPTaT1iORiL88gP3oaPtmOO87o51whD9MYz4XFI8tUBO2HwRX24zDxRnmCSiypvNJEY7"),
    // F: AWS STS session tokens (the older form, `FwoGZXIvYXdzE`: base64 of their header).
    token("FwoGZXIvYXdzE", "aws_session_token", Body::Base64, 60,
        "FwoGZXIvYXdzEQUdHIcZ2VscnwveCWecMHHDG+NYau0pLUH7U7EgimSJ7J8KjZG359pZbjOJieXoae7"),
    // G: GitLab runner registration tokens, Google OAuth client secrets.
    token("GR1348941", "gitlab_token", Body::Base64Url, 20, "GR1348941QSEdngxPpY7Q5dNeiKt8aUb_d7"),
    token("GOCSPX-", "google_client_secret", Body::Base64Url, 24, "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l7"),
    // H: Heroku platform API keys.
    token("HRKU-AA", "heroku_key", Body::Base64Url, 40, "HRKU-AAQmACeMZ-ulzIJ-7UfHQ_dKt6zxrdO-ypsYleL5noGf94M7"),
    // I: AWS STS session tokens (`IQoJb3JpZ2luX2Vj`: base64 of their header).
    token("IQoJb3JpZ2luX2Vj", "aws_session_token", Body::Base64, 60,
        "IQoJb3JpZ2luX2VjQAPjyTSNkW7+E9wa3SknUlyEcgkpFD6vL0EzorEBTRNvtkBjt3ysTGKOMbl0i7WpB7"),
    // L: Alibaba Cloud access key ids.
    token("LTAI", "alibaba_access_key_id", Body::Alnum, 16, "LTAIQgmscrYUbeNBtOq4crEBj7"),
    // N: New Relic.
    token("NRAK-", "new_relic_key", Body::UpperAlnum, 27, "NRAK-QQ1A430G4HZF1RBUD9O88QMNDWNOD6EO7"),
    token("NRJS-", "new_relic_key", Body::Hex, 19, "NRJS-cedfaae9687c8ff8fdc405be7"),
    token("NRII-", "new_relic_key", Body::Base64Url, 32, "NRII-QBLzOK3H5oosfjLioblvyxq725NYiTe6dj1sa7"),
    // P: Postman.
    token("PMAK-", "postman_key", Body::AlnumDash, 50,
        "PMAK-QA0FrrQF4nCBP-ezBDTJVakGPE2b1vDqVBX0uZc4nZPGrTnYWpoOqmO7"),
    // S: SendGrid.
    token("SG.", "sendgrid_key", Body::TwoSegments, 16,
        "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"),
    // a: Terraform Cloud, Hugging Face organization tokens.
    token("atlasv1-", "terraform_token", Body::Base64Url, 40, "atlasv1-QfdosCHblPT32ARdgn5zlUoS6KBs1s_SvaGJzQV3Jq3tL7"),
    token("api_org_", "huggingface_token", Body::Alnum, 30, "api_org_Q2RmHqwtnhn8YAQ9eGkFtfvyCDZVPPn0Czj7"),
    // b: Buildkite.
    token("bkua_", "buildkite_token", Body::Alnum, 40, "bkua_QhZRiBYj1l1GxkU6aTUBuDxhAPbG4qIdMF6to4Pl7pE0F7"),
    // d: DigitalOcean, Docker Hub, Databricks, Doppler, Dynatrace.
    token("dop_v1_", "digitalocean_token", Body::Hex, 64,
        "dop_v1_c444569eb79a031ab8929f35804b70f504aa76064edc64458ada378febc9a2b6bdd527"),
    token("doo_v1_", "digitalocean_token", Body::Hex, 64,
        "doo_v1_cf79fe4e14cec283d70842c9037b6a45c6ebe2ad893adc2c6291ec7a219920a3f2d557"),
    token("dor_v1_", "digitalocean_token", Body::Hex, 64,
        "dor_v1_cf74f3c65711a2765792f7db323b236fe4e0c0124d0f8ef05854dc506f977455e47187"),
    token("dckr_pat_", "docker_token", Body::Base64Url, 24, "dckr_pat_QX_oCS9yE8687AvAnThgCxg-l8XH97"),
    token("dapi", "databricks_token", Body::Hex, 32, "dapice43f1f6f19f642357926463f6502072f919b7"),
    token("dp.pt.", "doppler_token", Body::Alnum, 40, "dp.pt.QuoKUKdtaRDzqgZCEYKEk3DnO2Ijeg2Dy3IFWe0AALkSa7"),
    shaped("dp.st.", "doppler_token", Body::Alnum, 40, Shape::AfterSegment, "dp.st.dev.QaLF7j0ETD2O5131lAJxulr5Lfo5kZPnmb7X5nem0iwuR7"),
    token("dp.sa.", "doppler_token", Body::Alnum, 40, "dp.sa.QHz3ZM6UqvxCDNqXdoMVxuheQOdqDFChwmB3vfyGHE3d77"),
    token("dp.ct.", "doppler_token", Body::Alnum, 40, "dp.ct.QSOwX5xxm5bnlCRCh6GTvZmMZnbfN3qiHJ4VfZg4KtFWm7"),
    token("dp.scim.", "doppler_token", Body::Alnum, 40, "dp.scim.Q3yv8r41mOmrEmfGNcCGFjj6QbBwnXqFMICbeYztdY8gU7"),
    token("dp.audit.", "doppler_token", Body::Alnum, 40, "dp.audit.QUWZPztKI07GImuyiw1rDXv81uo6J4qFcMYS71zJg2jlz7"),
    token("dt0c01.", "dynatrace_token", Body::TwoSegments, 24,
        "dt0c01.QBB9NbkdA-8xt4uQVPrE13yCsMpJN7.QdYIPMNUzqsZdeEztzwqFZrmjX-ZfiGJSalX5Nv_1YPJg5pgv87"),
    // f: Figma, Fly.io, Firecrawl.
    token("figd_", "figma_token", Body::Base64Url, 40, "figd_QZHNeBIkTUgnG19LyFhR_shuvVkmGZHe2Q8uZSwmw7des7"),
    token("fo1_", "flyio_token", Body::Base64Url, 40, "fo1_Qwwjf6s8SMlrZgmjAoL7ZRW1GwkgsS8kkEjnjx7Bl4SGE7"),
    token("fm2_", "flyio_token", Body::Base64, 100,
        "fm2_QPwVFSe2NOe6Igwz4m1seG2k3XsfTmgv5x7qlriQExOCK1wRC6j/TrO6j/9lSqbSOX1XRFAJhjKjBgJ6YStWX68uWaYg2ngITkjvy6RKTQMr27"),
    token("fm1a_", "flyio_token", Body::Base64, 100,
        "fm1a_QDw53tbuVJLSDNTIApAGJ0tVsp9BUW8Pm6XWsSuudikUNeIsykz/DWdG2A5xBTbMDV21sIh283hRlzNKcpi/omjD7LVV6dAK0o1cnBWxFJrr/7"),
    token("fm1r_", "flyio_token", Body::Base64, 100,
        "fm1r_QlwruMs5lhtECbLRrPoKgKVjjeeYiINy1WT0pGUDnftstw4KO3VlQ86ibUrYvyHao8LKKsAoe8mOxylfgJ4g9OmvHekx/NjMsbJ9OBCWXAhSr7"),
    token("fc-", "firecrawl_key", Body::Hex, 32, "fc-ce0f83515d7de627d048a7b004b374b8b96cb7"),
    // g: GitHub, GitLab, Grafana, Groq.
    token("github_pat_", "github_token", Body::Word, 22, "github_pat_QkpuecI5_64YNavA1588KjwAIFV7"),
    token("ghp_", "github_token", Body::Alnum, 36, "ghp_Qs5VCXVUmBuSQSyA8qayh8AljWqFLEh5dzSbjvKRj7"),
    token("gho_", "github_token", Body::Alnum, 36, "gho_QbqiIYEyExpHzTSuJFABTBELDKv2I9VmBqsNbTOc67"),
    token("ghu_", "github_token", Body::Alnum, 36, "ghu_QF8rhlpML4LXicnejSqYBggSlLJ31Dugrw9EfoDhi7"),
    token("ghs_", "github_token", Body::Alnum, 36, "ghs_QEcbnoocesKyWHoRa5VMxIMJTYpJZcdfAZIUNdnDK7"),
    token("ghr_", "github_token", Body::Alnum, 36, "ghr_QTEHIRGjoILUPbGA9bhLFRcOEDMjeva0v5eoOkq7E7"),
    shaped("glpat-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments, "glpat-QgcAVt2KU1JrjKNMyVTtjuc_L7.01.qoficoil7"),
    shaped("glrt-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments, "glrt-QYEvm3fw3NYkFvQNWrYQ-3VL47.01.qkfn7buj7"),
    shaped("gldt-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments, "gldt-QQWPZ2f2GwhRa2bExK-XHA_ML7.01.qzn334137"),
    token("glptt-", "gitlab_token", Body::Hex, 40, "glptt-c369de8d6cbea5be4bb121b5f58604ea3238334ae42ea7"),
    shaped("glcbt-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments, "glcbt-QbsX2C_J_DRZmXqYdlZvqtUW27.01.qyht6cwf7"),
    shaped("glimt-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments, "glimt-Qwx65WJ9U2LkbPDUWGcoAmfW37.01.qphshybc7"),
    shaped("gloas-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments, "gloas-QLhsIzZAZFbV0UXpCiW_dl5Jk7.01.qrixghey7"),
    shaped("glagent-", "gitlab_token", Body::Base64Url, 50, Shape::DotSegments,
        "glagent-QR2Ai2sWx3tkTQ0v25Roe5eDwV1TV7t7nseLbEIxJHTKC9TadZWEpVo7.01.q4fyx1ac7"),
    shaped("glsoat-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments, "glsoat-QWiek34zqW3iiYs4OW6m7u_CM7.01.qbshskcm7"),
    shaped("glffct-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments, "glffct-QyNAZocrL2D-g6YedIb37NrCs7.01.qaz7xt1h7"),
    token("glsa_", "grafana_token", Body::Word, 32, "glsa_QHmjoo3P8v7xZDV9gvsnSUYtlqOGD1epqRZ6J7"),
    token("glc_", "grafana_token", Body::Base64, 32, "glc_QdnHrHyR6wmv0jYiRpBCF3lmRHPpsKWOOAu1Q7"),
    shaped("glft-", "gitlab_token", Body::Base64Url, 20, Shape::DotSegments, "glft-QH5MpfZABZZuKPyycuJlynpls7.01.qlerhty87"),
    token("gsk_", "groq_key", Body::Alnum, 40, "gsk_QgQ946T7TyRsb314FE1mPEUdss5XIy6QtB84IIaEidrIn7"),
    // h: Hugging Face, HashiCorp Vault.
    token("hf_", "huggingface_token", Body::Alnum, 30, "hf_QFOhSYs5g41nPCl5eALMlw8TbS1UGNUwBNr7"),
    token("hvs.", "vault_token", Body::Base64Url, 24, "hvs.QWoOAqG7MDaSYvUhfGZmWEC_7h4jL7"),
    token("hvb.", "vault_token", Body::Base64Url, 24, "hvb.QCaOGjR4AF7BMfnCZlAh-opzMzLy87"),
    token("hvr.", "vault_token", Body::Base64Url, 24, "hvr.QhME2FSKtHrKl75rDl8dCBm0zOP6P7"),
    // k: Mailgun.
    token("key-", "mailgun_key", Body::Hex, 32, "key-c55cda96d51783d21940b8c9d968da65400507"),
    // l: Linear, LangSmith.
    token("lin_api_", "linear_key", Body::Alnum, 40, "lin_api_QbduOUPFb3YVHx08PHM0VhqhWf49kt0gTSAitLYSvqLKN7"),
    token("lsv2_pt_", "langsmith_key", Body::Word, 43, "lsv2_pt_QLJim0WILZMuYh57vO5Xsts_YhhfyLLMSCuAXtbmSUKFkCa77"),
    token("lsv2_sk_", "langsmith_key", Body::Word, 43, "lsv2_sk_Q32zIHJ6GWQqhe0aIQGViI9bb15OnZ6WI8CSO_t6FmuSQIkv7"),
    // n: npm, Notion, NVIDIA, Netlify.
    token("npm_", "npm_token", Body::Alnum, 36, "npm_QuPS5G7NjY0Vrv3WqsTuePprnVlgZzSmqjP1Rabq77"),
    token("ntn_", "notion_token", Body::Alnum, 40, "ntn_QHUehuunjFtayIPVzHakldfOXAz1yzUJKIgdJOGFKKuE57"),
    token("nvapi-", "nvidia_key", Body::Base64Url, 64,
        "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"),
    token("nfp_", "netlify_token", Body::Word, 36, "nfp_Q0iOQbgZADIBDCAQh3md4ftw5DyMztow3QNq2pCbH7"),
    // o: NuGet, 1Password service accounts.
    token("oy2", "nuget_key", Body::Alnum, 43, "oy2QDosYyoreOUznubwAWRQ0SwDtoPACLfNtPS9tsAl1JqrkGGm7"),
    token("ops_eyJ", "onepassword_token", Body::Base64, 200,
        "ops_eyJQyr0kT3CD7WuDYKhsFIpdLTabyvioH7JG5+Kmu48uaE9e+GMNlgaipbQtT0i31yh7dxHHeCCflvJNRG/uJr0gv5FSPsk2N5EFR7E3H52wT91yhXRxLtIH4A002hXqLNHpqx07Vj1FCGnDpuf1HHyKGM843cNVL5hJ44MNlIgNljSx6ttS2PlUEMIw0SKJkEj0kITA+y+rlGPk6Clj7"),
    // p: PyPI, PlanetScale, Perplexity, Pulumi, PostHog, Airtable.
    token("pypi-", "pypi_token", Body::Base64Url, 50,
        "pypi-Q4bFbJIz_-ZHVAvSdlVR3e7ncHRyUNTjDhmGDSrNo9WJ9mnlfM1H70I7"),
    token("pscale_tkn_", "planetscale_token", Body::Base64Url, 32, "pscale_tkn_QF9PArNd8ib0fq5ilRX_tI41gzoUFlfXvZHcy7"),
    token("pscale_oauth_", "planetscale_token", Body::Base64Url, 32, "pscale_oauth_QV1LaWfMzRtDpeLLlwDCMwZjAi7nfOo2e7lE-7"),
    token("pscale_pw_", "planetscale_token", Body::Base64Url, 32, "pscale_pw_QeC3hTP-UxnZSuk5ugcy8m6WH3NaMBiokJK3L7"),
    token("pplx-", "perplexity_key", Body::Alnum, 40, "pplx-QlfQjxeGvEorRVYPMse6UC9rLpy5YNcyZieDrkq69ALZx7"),
    token("pul-", "pulumi_token", Body::Hex, 40, "pul-c11769df662edc53c4782d4401e6da4674fc18bd1688b7"),
    token("phx_", "posthog_key", Body::Word, 43, "phx_QlOICeeKoSapZG3lWMA2BiL0KM2vAWpKAZtAT00TBtW_IA8h7"),
    // r: Stripe restricted keys, Replicate, RubyGems, Render.
    token("rk_live_", "stripe_key", Body::Alnum, 16, "rk_live_QsnAWM5dEGbdqrGWUHmr67"),
    token("rk_test_", "stripe_key", Body::Alnum, 16, "rk_test_QSwpE7l0e3FmaQ91X6OS77"),
    token("r8_", "replicate_token", Body::Alnum, 30, "r8_Q2zSA0usi7eAVx47cITHZvyc4wWf96UZVb57"),
    token("rubygems_", "rubygems_key", Body::Hex, 48,
        "rubygems_c9c51dce6a71f4fb1bf880c74a7e6dd5ab2d801a13914ebbb65447"),
    token("rnd_", "render_key", Body::Alnum, 24, "rnd_QHug2oNrr7X5VGHkJdHLE3AUyKZIQ7"),
    // s: Anthropic, OpenAI (and the keys in its format), Stripe, Shopify, Sentry, Supabase,
    // Mapbox, Dropbox, Sourcegraph.
    token("sk-ant-", "anthropic_key", Body::Base64Url, 32, "sk-ant-QL7p0iBhqMFHFDXShE9552bA2I0AaAyta2jw-7"),
    token("sk-or-v1-", "openrouter_key", Body::Hex, 64,
        "sk-or-v1-c2f94e551f78c5a5bb07f79ec5caa9fb6d5a3942ca47d1617d7a2e85a0459c595a7417"),
    token("sk-lf-", "langfuse_key", Body::AlnumDash, 32, "sk-lf-Q9vPsDwXZz6Ujru87ZytUKzkrVb5jC-DVYp-n7"),
    token("sk-", "openai_key", Body::Base64Url, 20, "sk-Q9oGuEldTPGmFcBSSGye8Rn-m7"),
    token("sk_live_", "stripe_key", Body::Alnum, 16, "sk_live_QvSz0enO4peRQAwlXAsN57"),
    token("sk_test_", "stripe_key", Body::Alnum, 16, "sk_test_QtCTUWaMvD8kOZnuJ2TBf7"),
    token("sk.eyJ", "mapbox_token", Body::TwoSegments, 20,
        "sk.eyJQmAuZ8T8abt7EnDKfhWY4OJCy7.Q_BMovZFu6znaxScpF21xdIGfJ8DorCINyeHQwhFyjGnKy7"),
    token("shpat_", "shopify_token", Body::Hex, 32, "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798c97"),
    token("shpca_", "shopify_token", Body::Hex, 32, "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304347"),
    token("shppa_", "shopify_token", Body::Hex, 32, "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4238a7"),
    token("shpss_", "shopify_token", Body::Hex, 32, "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82ae87"),
    // Sentry organization tokens: base64 of their claims (`+`, `/`, `=`), `_`, a secret.
    token("sntrys_", "sentry_token", Body::Base64, 60,
        "sntrys_QnFqfVpS/accoDDLxkZTX6LYvLVVsP2AeOgBFPwZMLdxSfyvbg9WLFOsLVQj8hhEP7"),
    token("sntryu_", "sentry_token", Body::Hex, 64,
        "sntryu_cf6600ee3ee9bfc9c1bbeb44878b25e64d8ec86dac58e427378556ceeb29ae743ac727"),
    token("sbp_", "supabase_token", Body::Hex, 40, "sbp_c505fbe327b750f6d03d0073139ff000bab06eac1f7297"),
    token("sb_secret_", "supabase_token", Body::Base64Url, 24, "sb_secret_QAu3Y590DrQ0BBy-ahihSInVLlwuX7"),
    // Notion's integration tokens before `ntn_`: `secret_` and 43 letters and digits.
    token("secret_", "notion_token", Body::Alnum, 43, "secret_QJzA7Dfm3bia7hFonYa8BXWCsCUNvXvb9r8dGBGdaiR7oVrG7"),
    token("sq0atp-", "square_token", Body::Base64Url, 22, "sq0atp-Qq5-NldRTYSjYj1gKNcPOqMZXc07"),
    token("sq0csp-", "square_token", Body::Base64Url, 40, "sq0csp-QSjlpe-VtytUz_UlsnxwJ7pMI9VF-AqAlhPBV_3BEnSKl7"),
    token("sgp_", "sourcegraph_token", Body::Word, 40, "sgp_Qf4ikf_yiubDLcWlmf08uUThozmu6eS8D3tuJWLvHpMZZ7"),
    // Dropbox short-lived access tokens: `sl.` (or `sl.u.`) and 130 or more characters.
    token("sl.u.", "dropbox_token", Body::Base64Url, 130,
        "sl.u.QyXN9nvqhVFMJcNwe6MrJaqp7Iym-arwhWXIIJczGMKoAZme9nWjzIeiPctWbDEFJ2DvVyfa5-PerjtQPbM8G-Ay03owBDp67O9BscNmKAd0Cbi1w1Ny_CdXdIlEm40c0ZkESoZwYZZ7"),
    token("sl.", "dropbox_token", Body::Base64Url, 130,
        "sl.QMM3TvSokDDeu3QyClWMOuvbYKALHONKQy9luWuv_K1Xt3hTe0TgB7YEP3nqTGve8Z0KVxSfMPd-extgvrIG6e22JohUV_NA058e3cret52c2vfC9dhawzwlGyxxffM3y2lNo58mf-n7"),
    // t: Tailscale (`tskey-auth-`, `tskey-api-`, `tskey-client-`, ...), Tavily.
    token("tskey-", "tailscale_key", Body::Base64Url, 30, "tskey-QnoZg19eZtOlpi4Mz5_XNODBqOx2ZNEEm7l7"),
    token("tvly-", "tavily_key", Body::AlnumDash, 30, "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"),
    // w: Stripe webhook signing secrets.
    token("whsec_", "stripe_webhook_secret", Body::Base64Url, 24, "whsec_QhK4XkS-ZxiJjkW131aFowU6FjgEF7"),
    // x: Slack (`xoxd-` is the `d` cookie of a browser session, URL-encoded base64), xAI,
    // Brevo.
    token("xoxa-", "slack_token", Body::AlnumDash, 10, "xoxa-Qk0vFroXosveuMf7"),
    token("xoxb-", "slack_token", Body::AlnumDash, 10, "xoxb-Q2U8in2w9Q7D3kJ7"),
    token("xoxp-", "slack_token", Body::AlnumDash, 10, "xoxp-QiCJIvdLtwDXrXN7"),
    token("xoxo-", "slack_token", Body::AlnumDash, 10, "xoxo-QRNnteIGFzkE2Lq7"),
    token("xoxr-", "slack_token", Body::AlnumDash, 10, "xoxr-QOLevN-0Y96KFJI7"),
    token("xoxs-", "slack_token", Body::AlnumDash, 10, "xoxs-QtyuCI71JkwPMer7"),
    token("xoxe-", "slack_token", Body::AlnumDash, 10, "xoxe-QlDOzVLFQEBi5rG7"),
    token("xoxc-", "slack_token", Body::AlnumDash, 10, "xoxc-QMVB3nF9nGU70867"),
    token("xoxd-", "slack_token", Body::Base64, 40, "xoxd-Qhtg3bpnZB4zS4MVwqqOKOUKBd8OA4MAdubcMtg00xT8U7"),
    token("xoxe.xox", "slack_token", Body::AlnumDash, 10, "xoxe.xoxQQzmB3GGWQid-bz7"),
    token("xapp-", "slack_token", Body::AlnumDash, 10, "xapp-QTDwllvFruIP8Kr7"),
    token("xai-", "xai_key", Body::Alnum, 40, "xai-QXLMLMLB8oHWIG0DSYMDYbgZBk1e8v4IrAe4Lq3U6OHLZ7"),
    token("xkeysib-", "brevo_key", Body::AlnumDash, 80,
        "xkeysib-QB8lLUmhulN7Pm5EGjBnE28QV6YafKB1cuCbLelcnPN32kyqibEpXr9ed5j2Bd3ycObn7dU2O-MmKn6z0GTB67"),
    token("xsmtpsib-", "brevo_key", Body::AlnumDash, 80,
        "xsmtpsib-QPdKBf4BE0VCQMigTMxF8-7WmC38Pt4iOgo3QhxbQfEdmSlARElnK6G3qOAZQjKgOdtetC3CLyGAc3yW0mPQn7"),
    // 1: Google OAuth refresh tokens.
    token("1//0", "google_oauth_token", Body::Base64Url, 40, "1//0QWsScN_VoAMiDkC7qvZBUkpLZwgwQ366OwXU3vXkCZM2M7"),
    // y: Google OAuth access tokens.
    token("ya29.", "google_oauth_token", Body::Base64UrlDot, 30, "ya29.Q_G_3KmKIlCC8_U_50BoOQbMNuwAve_JKX47"),
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

    /// Where a record's example is put: alone, in prose, in a log line, as a JSON value, as
    /// an assignment whose name says nothing, and quoted in code. `{}` is the token.
    const PLACEMENTS: &[&str] = &[
        "{}",
        "the deploy used {} yesterday",
        "2026-12-04T10:00:00Z INFO loaded {} from the store",
        "{\"id\": 7, \"value\": \"{}\"}",
        "X={}",
        "client = Client(\"{}\")",
    ];

    #[test]
    fn every_record_redacts_its_example() {
        for t in TOKENS {
            let ex = t.example;
            assert!(ex.starts_with(t.prefix), "{}: the example {ex:?} does not start with the prefix", t.prefix);
            let marker = format!("[REDACTED:{}]", t.family);
            for placement in PLACEMENTS {
                let text = placement.replace("{}", ex);
                let out = crate::redact_text(&text);
                assert_eq!(
                    out,
                    placement.replace("{}", &marker),
                    "{}: the example is not redacted whole as {} in {text:?}",
                    t.prefix,
                    t.family
                );
            }
            // Cut below the shortest body, the example is no token of this format (another
            // rule may still judge it; this record must not).
            let segment = if t.shape == Shape::AfterSegment { ex[t.prefix.len()..].find('.').map_or(0, |dot| dot + 1) } else { 0 };
            let short = &ex[..t.prefix.len() + segment + t.min - 1];
            let text = format!("the deploy used {short} yesterday");
            assert!(
                !crate::redact_text(&text).contains(&marker),
                "{}: {short:?}, a body shorter than {}, is still redacted as {}",
                t.prefix,
                t.min,
                t.family
            );
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
