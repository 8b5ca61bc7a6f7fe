//! The rules, as data tables with their tests beside them: the kind vocabulary, how
//! JSON-RPC codes and transport failures are read, recognition of well-known failure
//! text, argument checks, recovery advice, the shrink steps of the size cap, and the caps.

pub(crate) mod arguments;
pub(crate) mod classify;
pub(crate) mod kinds;
pub(crate) mod policy;
pub(crate) mod recognize;
pub(crate) mod recovery;
pub(crate) mod shrink;
pub(crate) mod suggest;
pub(crate) mod validators;
