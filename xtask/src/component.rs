//! The component surface's build, demo, test and bench steps (being written).

use crate::util::{Ctx, Result};

pub fn build(_ctx: &Ctx) -> Result<std::path::PathBuf> {
    Err("the component surface is not wired yet".into())
}

pub fn test(_ctx: &Ctx) -> Result {
    Err("the component surface is not wired yet".into())
}

pub fn demo(_ctx: &Ctx) -> Result {
    Err("the component surface is not wired yet".into())
}

pub fn bench(_ctx: &Ctx) -> Result {
    Err("the component surface is not wired yet".into())
}
