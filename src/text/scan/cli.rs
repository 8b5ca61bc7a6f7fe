//! Credentials in command lines, by command and flag.

use std::ops::Range;

use super::*;

/// How a command's flag carries a credential.
#[derive(Clone, Copy, Debug)]
enum Flag {
    /// The next argument, or what is glued to the flag (`-p secret`, `-psecret`).
    Value(&'static str),
    /// Only what is glued to the flag (`mysql -psecret`: `-p secret` prompts).
    Glued(&'static str),
    /// `user:password` (or `user%password`) in the next or glued argument: the password.
    UserPassword(&'static str, u8),
    /// An argument that starts with this literal (`pass:secret` for OpenSSL).
    Prefixed(&'static str),
    /// Cookies in the next or glued argument, when it holds a `name=value` (`curl -b
    /// 'sid=…'`; `-b cookies.txt` names a file).
    Cookies(&'static str),
    /// The third argument that is no flag (`file user password`), when this short flag is
    /// given alone or among others (`htpasswd -b -c file user password`, `htpasswd -bc
    /// …`). Counted from the command, not taken as the line's last word: what follows on
    /// the line (`&& systemctl reload`), a cut or a marker that ends the arguments read
    /// never moves it onto another word.
    Batch(u8),
    /// The argument after one that starts with this literal (`net use \\s\x /user:ann
    /// password`).
    After(&'static str),
    /// Only the argument after exactly this flag (`keytool -storepass secret`), where a
    /// longer word starting with it is another flag (`openssl -k secret`, not `-kfile`).
    Next(&'static str),
    /// The `n`th argument after this subcommand, in any case, unless it is a switch or a
    /// prompt's `*` (`net user ann secret /add`: the second).
    Subcommand(&'static str, usize),
    /// The first argument that is no flag, when this flag is given too, in any case
    /// (`ConvertTo-SecureString 'secret' -AsPlainText`).
    With(&'static str),
}

/// Commands whose arguments carry credentials, and how.
const COMMANDS: &[(&str, &[Flag])] = &[
    ("sshpass", &[Flag::Value("-p")]),
    ("mysql", &[Flag::Glued("-p")]),
    ("mysqldump", &[Flag::Glued("-p")]),
    ("mariadb", &[Flag::Glued("-p")]),
    (
        "curl",
        &[
            Flag::UserPassword("-u", b':'),
            Flag::UserPassword("--user", b':'),
            Flag::UserPassword("--proxy-user", b':'),
            Flag::Cookies("-b"),
            Flag::Cookies("--cookie"),
        ],
    ),
    // `-n` prints the entry instead of writing a file: the password is then the second
    // operand (`htpasswd -nb user password`).
    ("htpasswd", &[Flag::Batch(b'b')]),
    ("net", &[Flag::After("/user:"), Flag::Subcommand("user", 2)]),
    ("cmdkey", &[Flag::Prefixed("/pass:")]),
    ("ConvertTo-SecureString", &[Flag::Next("-String"), Flag::With("-AsPlainText")]),
    ("convertto-securestring", &[Flag::Next("-String"), Flag::With("-AsPlainText")]),
    ("wget", &[Flag::Value("--password"), Flag::Value("--http-password")]),
    ("docker", &[Flag::Value("-p"), Flag::Next("--password")]),
    ("podman", &[Flag::Value("-p")]),
    ("nerdctl", &[Flag::Value("-p")]),
    ("helm", &[Flag::Value("-p")]),
    ("redis-cli", &[Flag::Value("-a"), Flag::Next("--pass")]),
    ("openssl", &[Flag::Prefixed("pass:"), Flag::Next("-k")]),
    ("ssh-keygen", &[Flag::Next("-N"), Flag::Next("-P")]),
    (
        "keytool",
        &[
            Flag::Next("-storepass"),
            Flag::Next("-keypass"),
            Flag::Next("-srcstorepass"),
            Flag::Next("-deststorepass"),
            Flag::Next("-srckeypass"),
            Flag::Next("-destkeypass"),
        ],
    ),
    ("psexec", &[Flag::Next("-p")]),
    ("PsExec", &[Flag::Next("-p")]),
    ("xfreerdp", &[Flag::Prefixed("/p:")]),
    ("rdesktop", &[Flag::Next("-p")]),
    ("mosquitto_pub", &[Flag::Next("-P")]),
    ("mosquitto_sub", &[Flag::Next("-P")]),
    ("cqlsh", &[Flag::Next("-p"), Flag::Next("--password")]),
    ("lftp", &[Flag::UserPassword("-u", b',')]),
    ("vsql", &[Flag::Next("-w")]),
    ("http", HTTPIE),
    ("https", HTTPIE),
    ("ldapsearch", &[Flag::Value("-w")]),
    ("ldapmodify", &[Flag::Value("-w")]),
    ("ldapadd", &[Flag::Value("-w")]),
    ("ldapdelete", &[Flag::Value("-w")]),
    ("sqlcmd", &[Flag::Value("-P")]),
    ("bcp", &[Flag::Value("-P")]),
    ("smbclient", &[Flag::UserPassword("-U", b'%')]),
    ("zip", &[Flag::Value("-P")]),
    ("unzip", &[Flag::Value("-P")]),
    ("7z", &[Flag::Glued("-p")]),
    ("az", &[Flag::Value("-p")]),
    ("mongosh", &[Flag::Value("-p")]),
    ("mongo", &[Flag::Value("-p")]),
    ("mongodump", &[Flag::Value("-p")]),
];

/// The flags of HTTPie's two commands.
const HTTPIE: &[Flag] = &[Flag::UserPassword("-a", b':'), Flag::UserPassword("--auth", b':')];

/// The longest command line read after a command's name, in bytes.
const MAX_COMMAND_LINE: usize = 2048;

/// Credentials in command lines of [`COMMANDS`], also when the arguments are logged as a
/// JSON array (`["sshpass", "-p", "…"]`): the rest of the line is read as arguments.
pub(crate) fn cli_credentials(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for (command, flags) in COMMANDS {
        // The same command named as a plain argument of one read before: its flags were
        // read with that one's. Named inside a quoted argument, it is read on its own, so
        // that a marker which stops the reading before the quote changes nothing.
        let mut passed = std::collections::BinaryHeap::new();
        // Past the budget of argument bytes, a line is read once (what the command named
        // again on it holds is passed over): the work stays a small multiple of the text.
        let mut budget = ARGUMENT_BUDGET_PER_BYTE * text.len() + ARGUMENT_BUDGET;
        let mut resume = 0;
        // Where the next line break and the next marker are, found once for every
        // command name after them.
        let (mut next_break, mut next_marker) = (0, 0);
        for at in positions(text, command) {
            let end = at + command.len();
            while passed.peek().is_some_and(|&std::cmp::Reverse(p)| p < at) {
                passed.pop();
            }
            if at < resume || passed.peek() == Some(&std::cmp::Reverse(at)) {
                continue;
            }
            let before_ok = at == 0 || matches!(bytes[at - 1], b' ' | b'\t' | b'\n' | b'/' | b'"' | b'\'' | b'$' | b'[' | b'(');
            let after_ok = matches!(bytes.get(end), Some(b' ' | b'\t' | b'"' | b'\''));
            if !before_ok || !after_ok {
                continue;
            }
            // A command line is read to its end, at most this far: an argument list is short.
            // At a character boundary: the arguments are sliced out of the text.
            let reach = crate::search::floor_boundary(text, end + MAX_COMMAND_LINE);
            if next_break < end {
                next_break = end + bytes[end..].iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(bytes.len() - end);
                crate::search::work::tally(next_break - end);
            }
            let line_end = next_break.min(reach);
            // Its arguments are not read past a redaction marker: read again, a command
            // line shortened by one would reach arguments it did not reach before.
            if next_marker < end {
                next_marker = crate::search::find_from(text, MARKER_PREFIX, end).unwrap_or(bytes.len());
                crate::search::work::tally(next_marker - end);
            }
            let args_end = next_marker.min(line_end);
            // `["sshpass", "-p", …]`: the arguments start after the command's closing quote.
            let quoted = at > 0 && matches!(bytes[at - 1], b'"' | b'\'') && bytes.get(end) == Some(&bytes[at - 1]);
            let args = arguments(bytes, if quoted { end + 1 } else { end }, args_end, quoted);
            let read = args.last().map_or(0, |a| a.end - end);
            crate::search::work::tally(read);
            budget = budget.saturating_sub(read);
            if budget == 0 {
                resume = if args.len() < MAX_ARGUMENTS { line_end } else { args.last().map_or(line_end, |a| a.end) };
            }
            // An argument is plain when no quote opens it (the command's own closing quote
            // before the first is taken for one: that command is then read again).
            passed.extend(
                args.iter()
                    .filter(|a| a.start > 0 && !matches!(bytes[a.start - 1], b'"' | b'\'') && &text[(*a).clone()] == *command)
                    .map(|a| std::cmp::Reverse(a.start)),
            );
            for (k, arg) in args.iter().enumerate() {
                let word = &text[arg.clone()];
                for flag in *flags {
                    let found = match *flag {
                        Flag::Value(f) if word == f => args.get(k + 1).cloned(),
                        Flag::Value(f) | Flag::Glued(f)
                            if word.len() > f.len() && word.starts_with(f) && !word[f.len()..].starts_with('-') =>
                        {
                            Some(arg.start + f.len()..arg.end)
                        }
                        Flag::UserPassword(f, sep) => {
                            let value = if word == f {
                                args.get(k + 1).cloned()
                            } else if word.len() > f.len() && word.starts_with(f) && f.len() == 2 {
                                Some(arg.start + f.len()..arg.end)
                            } else {
                                None
                            };
                            value.and_then(|v| text[v.clone()].find(sep as char).map(|c| v.start + c + 1..v.end))
                        }
                        Flag::Prefixed(p) if word.len() > p.len() && word.starts_with(p) => Some(arg.start + p.len()..arg.end),
                        Flag::Cookies(f) => {
                            let value = if word == f {
                                args.get(k + 1).cloned()
                            } else if f.len() == 2 && word.len() > 2 && word.starts_with(f) {
                                Some(arg.start + 2..arg.end)
                            } else {
                                None
                            };
                            value.filter(|v| text[v.clone()].contains('='))
                        }
                        Flag::Batch(short) => {
                            let given = word.len() >= 2
                                && word.len() <= 6
                                && word.starts_with('-')
                                && !word.starts_with("--")
                                && word.bytes().skip(1).all(|b| b.is_ascii_alphabetic())
                                && word.as_bytes().contains(&short);
                            if given {
                                // With `-n` no file is named: the password is the second.
                                let nth = if word.as_bytes().contains(&b'n') { 2 } else { 3 };
                                nth_operand(text, &args[k + 1..], nth)
                            } else {
                                None
                            }
                        }
                        Flag::After(p) if word.len() > p.len() && word.to_ascii_lowercase().starts_with(p) => args.get(k + 1).cloned(),
                        Flag::Next(f) if word == f => args.get(k + 1).cloned(),
                        Flag::Subcommand(sub, n) if word.eq_ignore_ascii_case(sub) => args.get(k + n).cloned().filter(|v| {
                            let v = &text[v.clone()];
                            !v.starts_with(['/', '-']) && v != "*"
                        }),
                        Flag::With(f) if k == 0 && args.iter().any(|a| text[a.clone()].eq_ignore_ascii_case(f)) => {
                            // A variable (`$pw`) is a reference, not the password.
                            args.iter()
                                .find(|a| !text[(*a).clone()].starts_with('-'))
                                .cloned()
                                .filter(|v| !text[v.clone()].starts_with('$'))
                        }
                        _ => None,
                    };
                    // `docker run -p 8080:80`: a published port, which `-p` also means.
                    let port_mapping = |v: &str| {
                        v.contains(':')
                            && v.bytes().all(|b| {
                                b.is_ascii_digit() || matches!(b, b':' | b'.' | b'/' | b'-') || b.is_ascii_lowercase() && v.contains('/')
                            })
                    };
                    if let Some(span) =
                        found.filter(|s| s.end > s.start && !is_placeholder(&text[s.clone()]) && !port_mapping(&text[s.clone()]))
                    {
                        spans.push(span);
                    }
                }
            }
        }
    }
    crate::order::sort_by_key(&mut spans, |s| s.start);
    spans.dedup_by(|b, a| b.start < a.end);
    spans
}

/// The `nth` of `args` that is no flag nor a flag's value (`-C 10`, `-r 5000`: htpasswd's
/// cost and rounds take one).
fn nth_operand(text: &str, args: &[Range<usize>], nth: usize) -> Option<Range<usize>> {
    let mut operands = 0;
    let mut valued = false;
    for arg in args {
        let word = &text[arg.clone()];
        if std::mem::take(&mut valued) {
            continue;
        }
        if word.starts_with('-') && word.len() > 1 {
            valued = matches!(word, "-C" | "-r");
            continue;
        }
        operands += 1;
        if operands == nth {
            return Some(arg.clone());
        }
    }
    None
}

/// Argument bytes [`cli_credentials`] reads per command name, per byte of text and in
/// all: past them, a line is read once.
const ARGUMENT_BUDGET_PER_BYTE: usize = 4;
const ARGUMENT_BUDGET: usize = 64 * 1024;

/// The most arguments of one command line read.
const MAX_ARGUMENTS: usize = 64;

/// The arguments of a command line between `from` and `to`: words split at blanks, with
/// their quotes (and a JSON array's commas) left out of each range. For a command named
/// in quotes (`in_array`: the first element of a JSON array), an unquoted `]` closes the
/// array and ends the arguments (`["htpasswd", …]}`: the `}` is none).
fn arguments(bytes: &[u8], from: usize, to: usize, in_array: bool) -> Vec<Range<usize>> {
    let mut args = Vec::new();
    let mut i = from;
    while i < to && args.len() < MAX_ARGUMENTS {
        while i < to && matches!(bytes[i], b' ' | b'\t' | b',' | b']') {
            if in_array && bytes[i] == b']' {
                return args;
            }
            i += 1;
        }
        if i >= to {
            break;
        }
        let (start, end) = match bytes[i] {
            q @ (b'"' | b'\'') => {
                let close = i + 1 + bytes[i + 1..to].iter().position(|&b| b == q).unwrap_or(to - i - 1);
                (i + 1, close)
            }
            // A comma separates an array's elements; on a command line it is part of a
            // word (`lftp -u bob,password`).
            _ => (i, i + bytes[i..to].iter().position(|&b| matches!(b, b' ' | b'\t') || (in_array && b == b',')).unwrap_or(to - i)),
        };
        args.push(start..end);
        i = end + 1;
    }
    args
}
