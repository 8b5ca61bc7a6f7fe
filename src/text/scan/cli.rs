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
    ("htpasswd", &[Flag::Batch(b'b')]),
    ("net", &[Flag::After("/user:")]),
    ("wget", &[Flag::Value("--password"), Flag::Value("--http-password")]),
    ("docker", &[Flag::Value("-p")]),
    ("podman", &[Flag::Value("-p")]),
    ("nerdctl", &[Flag::Value("-p")]),
    ("helm", &[Flag::Value("-p")]),
    ("redis-cli", &[Flag::Value("-a")]),
    ("openssl", &[Flag::Prefixed("pass:")]),
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

/// The longest command line read after a command's name, in bytes.
const MAX_COMMAND_LINE: usize = 2048;

/// Credentials in command lines of [`COMMANDS`], also when the arguments are logged as a
/// JSON array (`["sshpass", "-p", "…"]`): the rest of the line is read as arguments.
pub(crate) fn cli_credentials(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for (command, flags) in COMMANDS {
        let mut resume = 0;
        for at in positions(text, command) {
            let end = at + command.len();
            // A command named again within the arguments just read was read with them.
            if at < resume {
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
            let line_end = end + bytes[end..reach].iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(reach - end);
            crate::search::work::tally(line_end - end);
            // Its arguments are not read past a redaction marker: read again, a command
            // line shortened by one would reach arguments it did not reach before. The same
            // command named again up to the line's end is still passed over: read again, the
            // text after a marker passes over at least what it did the first time.
            let args_end = crate::search::find(&text[end..line_end], MARKER_PREFIX).map_or(line_end, |m| end + m);
            // `["sshpass", "-p", …]`: the arguments start after the command's closing quote.
            let quoted = at > 0 && matches!(bytes[at - 1], b'"' | b'\'') && bytes.get(end) == Some(&bytes[at - 1]);
            let args = arguments(bytes, if quoted { end + 1 } else { end }, args_end);
            // Only the arguments read were read: a command named after the last of them
            // (past the most a command line is read for) is read on its own.
            resume = if args.len() < MAX_ARGUMENTS { line_end } else { args.last().map_or(line_end, |a| a.end) };
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
                                third_operand(text, &args[k + 1..])
                            } else {
                                None
                            }
                        }
                        Flag::After(p) if word.len() > p.len() && word.to_ascii_lowercase().starts_with(p) => args.get(k + 1).cloned(),
                        _ => None,
                    };
                    if let Some(span) = found.filter(|s| s.end > s.start && !is_placeholder(&text[s.clone()])) {
                        spans.push(span);
                    }
                }
            }
        }
    }
    spans.sort_unstable_by_key(|s| s.start);
    spans.dedup_by(|b, a| b.start < a.end);
    spans
}

/// The third of `args` that is no flag nor a flag's value (`-C 10`, `-r 5000`: htpasswd's
/// cost and rounds take one).
fn third_operand(text: &str, args: &[Range<usize>]) -> Option<Range<usize>> {
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
        if operands == 3 {
            return Some(arg.clone());
        }
    }
    None
}

/// The most arguments of one command line read.
const MAX_ARGUMENTS: usize = 64;

/// The arguments of a command line between `from` and `to`: words split at blanks, with
/// their quotes (and a JSON array's commas) left out of each range.
fn arguments(bytes: &[u8], from: usize, to: usize) -> Vec<Range<usize>> {
    let mut args = Vec::new();
    let mut i = from;
    while i < to && args.len() < MAX_ARGUMENTS {
        while i < to && matches!(bytes[i], b' ' | b'\t' | b',' | b']') {
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
            _ => (i, i + bytes[i..to].iter().position(|&b| matches!(b, b' ' | b'\t' | b',')).unwrap_or(to - i)),
        };
        args.push(start..end);
        i = end + 1;
    }
    args
}
