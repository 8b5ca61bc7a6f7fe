//! The pipelines: a failure report to an [`Outcome`](crate::Outcome) (the normalizer), a
//! run report to a [`RunError`](crate::run::RunError), and the messages both compose.

pub(crate) mod exec;
pub(crate) mod exec_step;
pub(crate) mod message;
pub(crate) mod normalize;
pub(crate) mod run;

pub use normalize::Normalizer;
