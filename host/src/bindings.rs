//! Host-side bindings generated from the `codemode:errors` WIT package (`../wit`), which
//! documents every type.

#![allow(missing_docs)]

wasmtime::component::bindgen!({
    world: "codemode-errors",
    path: "../wit",
    additional_derives: [PartialEq, Eq],
});
