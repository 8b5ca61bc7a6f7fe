//! `gaps.json`: the surfaces, the forms each one runs, and the declared gaps, each a
//! surface × vector (× form) pair that is known to fail, with its reason.
//!
//! A declared gap is still run and must still fail: one that passes fails the run, telling
//! the developer to remove the entry. A failure that is not declared fails the run. A gap
//! entry without `form` covers every form the surface runs for that vector.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::Value;

use crate::{Form, Suite, Vector};

/// One surface: where the vectors run, and in which forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SurfaceDecl {
    /// E.g. `component-session`.
    pub name: String,
    /// The file that runs it.
    pub runner: String,
    /// The forms it runs, each for every vector the form applies to.
    pub forms: Vec<Form>,
}

/// One declared gap (an entry without `form` is stored once per form it covers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    /// The surface.
    pub surface: String,
    /// The vector.
    pub vector: String,
    /// The form.
    pub form: Form,
    /// Why the surface fails this vector.
    pub reason: String,
}

/// The parsed `gaps.json`.
#[derive(Clone, Debug, Default)]
pub struct Gaps {
    /// Every surface, in the order written.
    pub surfaces: Vec<SurfaceDecl>,
    /// Every declared gap.
    pub gaps: Vec<Gap>,
}

impl Gaps {
    pub(crate) fn parse(text: &str, vectors: &BTreeMap<&str, &Vector>) -> Result<Gaps, Vec<String>> {
        let doc: Value = serde_json::from_str(text).map_err(|e| vec![format!("not JSON: {e}")])?;
        let object = doc.as_object().ok_or_else(|| vec!["not a JSON object".to_owned()])?;
        let mut problems = Vec::new();
        for key in object.keys() {
            if !["description", "surfaces", "gaps"].contains(&key.as_str()) {
                problems.push(format!("unknown key {key:?}; expected description, surfaces and gaps"));
            }
        }
        let mut surfaces = Vec::new();
        match object.get("surfaces") {
            Some(Value::Object(map)) => {
                for (name, decl) in map {
                    match surface(name, decl) {
                        Ok(s) => surfaces.push(s),
                        Err(e) => problems.push(format!("surfaces.{name}: {e}")),
                    }
                }
            }
            _ => problems.push("`surfaces` must be an object of surface names to {runner, forms}".into()),
        }
        let mut gaps: Vec<Gap> = Vec::new();
        let entries = match object.get("gaps") {
            Some(Value::Array(list)) => list.as_slice(),
            _ => {
                problems.push("`gaps` must be an array".into());
                &[]
            }
        };
        for (i, entry) in entries.iter().enumerate() {
            match gap_entry(entry, &surfaces, vectors) {
                Ok(expanded) => {
                    for gap in expanded {
                        if gaps.iter().any(|g| (&g.surface, &g.vector, g.form) == (&gap.surface, &gap.vector, gap.form)) {
                            problems.push(format!("gaps[{i}]: {} {} [{}] is declared twice", gap.surface, gap.vector, gap.form));
                        } else {
                            gaps.push(gap);
                        }
                    }
                }
                Err(e) => problems.push(format!("gaps[{i}]: {e}")),
            }
        }
        if problems.is_empty() {
            Ok(Gaps { surfaces, gaps })
        } else {
            Err(problems)
        }
    }

    /// The surface with this name.
    pub fn surface(&self, name: &str) -> Option<&SurfaceDecl> {
        self.surfaces.iter().find(|s| s.name == name)
    }

    /// The declared gap for this pair, if any.
    pub fn gap(&self, surface: &str, vector: &str, form: Form) -> Option<&Gap> {
        self.gaps.iter().find(|g| g.surface == surface && g.vector == vector && g.form == form)
    }
}

fn non_empty(v: Option<&Value>, what: &str) -> Result<String, String> {
    match v {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
        _ => Err(format!("`{what}` must be a non-empty string")),
    }
}

fn surface(name: &str, decl: &Value) -> Result<SurfaceDecl, String> {
    let object = decl.as_object().ok_or("must be an object {runner, forms}")?;
    if let Some(key) = object.keys().find(|k| !["runner", "forms"].contains(&k.as_str())) {
        return Err(format!("unknown key {key:?}"));
    }
    let runner = non_empty(object.get("runner"), "runner")?;
    let list = object.get("forms").and_then(Value::as_array).ok_or("`forms` must be an array of form names")?;
    let mut forms = Vec::new();
    for f in list {
        let form = f
            .as_str()
            .and_then(Form::from_name)
            .ok_or_else(|| format!("unknown form {f}; expected one of {:?}", Form::ALL.iter().map(|f| f.name()).collect::<Vec<_>>()))?;
        if forms.contains(&form) {
            return Err(format!("form {form} is listed twice"));
        }
        forms.push(form);
    }
    Ok(SurfaceDecl { name: name.to_owned(), runner, forms })
}

fn gap_entry(entry: &Value, surfaces: &[SurfaceDecl], vectors: &BTreeMap<&str, &Vector>) -> Result<Vec<Gap>, String> {
    let object = entry.as_object().ok_or("must be an object {surface, vector, form?, reason}")?;
    if let Some(key) = object.keys().find(|k| !["surface", "vector", "form", "reason"].contains(&k.as_str())) {
        return Err(format!("unknown key {key:?}"));
    }
    let name = non_empty(object.get("surface"), "surface")?;
    let surface = surfaces.iter().find(|s| s.name == name).ok_or_else(|| format!("unknown surface {name:?}"))?;
    let vector_name = non_empty(object.get("vector"), "vector")?;
    let vector = vectors.get(vector_name.as_str()).ok_or_else(|| format!("no vector named {vector_name}"))?;
    let reason = non_empty(object.get("reason"), "reason")?;
    let runs = |form: Form| surface.forms.contains(&form) && vector.applies(form);
    let forms = match object.get("form") {
        None => {
            let forms: Vec<Form> = Form::ALL.into_iter().filter(|f| runs(*f)).collect();
            if forms.is_empty() {
                return Err(format!("{name} runs no form of {vector_name}"));
            }
            forms
        }
        Some(f) => {
            let form = f.as_str().and_then(Form::from_name).ok_or_else(|| format!("unknown form {f}"))?;
            if !surface.forms.contains(&form) {
                return Err(format!("{name} does not run the {form} form"));
            }
            if !vector.applies(form) {
                return Err(format!("the {form} form does not apply to {vector_name} (forms: {:?})", names(&vector.forms())));
            }
            vec![form]
        }
    };
    Ok(forms.into_iter().map(|form| Gap { surface: name.clone(), vector: vector_name.clone(), form, reason: reason.clone() }).collect())
}

fn names(forms: &[Form]) -> Vec<&'static str> {
    forms.iter().map(|f| f.name()).collect()
}

/// One surface's results, judged against `gaps.json` when finished.
pub struct Tally<'a> {
    suite: &'a Suite,
    surface: &'a SurfaceDecl,
    filtered: bool,
    results: BTreeMap<(String, Form), Result<(), String>>,
    problems: Vec<String>,
}

impl<'a> Tally<'a> {
    /// A tally for the surface `name` of `gaps.json`. `filtered`: only some vectors run
    /// (`VECTORS_FILTER`), so vectors and gaps not run are not reported.
    pub fn new(suite: &'a Suite, name: &str, filtered: bool) -> Tally<'a> {
        let surface = suite.gaps.surface(name).unwrap_or_else(|| panic!("gaps.json declares no surface {name:?}"));
        Tally { suite, surface, filtered, results: BTreeMap::new(), problems: Vec::new() }
    }

    /// The forms this surface runs for `vector`: the declared ones that apply.
    pub fn forms(&self, vector: &Vector) -> Vec<Form> {
        self.surface.forms.iter().copied().filter(|f| vector.applies(*f)).collect()
    }

    /// Record one check: `Err` says what differs.
    pub fn record(&mut self, vector: &Vector, form: Form, result: Result<(), String>) {
        let name = &self.surface.name;
        if !self.surface.forms.contains(&form) {
            self.problems.push(format!("{name} ran the {form} form of {}, which gaps.json does not declare for it", vector.name));
        } else if !vector.applies(form) {
            self.problems.push(format!("{name} ran the {form} form of {}, which does not apply to it", vector.name));
        } else if self.results.insert((vector.name.clone(), form), result).is_some() {
            self.problems.push(format!("{name} ran the {form} form of {} twice", vector.name));
        }
    }

    /// The verdict: `Ok` with a summary, or `Err` with every problem and the summary.
    pub fn finish(self) -> Result<String, String> {
        let surface = &self.surface.name;
        let mut problems = self.problems;
        let mut declared = Vec::new();
        let mut per_form: BTreeMap<Form, usize> = BTreeMap::new();
        let ran: BTreeSet<&str> = self.results.keys().map(|(v, _)| v.as_str()).collect();
        for ((vector, form), result) in &self.results {
            *per_form.entry(*form).or_default() += 1;
            match (self.suite.gaps.gap(surface, vector, *form), result) {
                (None, Ok(())) => {}
                (None, Err(why)) => problems.push(format!("FAILED {surface} {vector} [{form}]\n    {why}")),
                (Some(gap), Err(_)) => declared.push(format!("{vector} [{form}]: {}", gap.reason)),
                (Some(_), Ok(())) => problems.push(format!(
                    "FIXED {surface} {vector} [{form}]: a declared gap now passes; remove its entry from tests/vectors/gaps.json"
                )),
            }
        }
        let mut no_form = 0;
        for vector in &self.suite.vectors {
            let forms: Vec<Form> = self.surface.forms.iter().copied().filter(|f| vector.applies(*f)).collect();
            if forms.is_empty() {
                // Structurally out of this surface's reach (e.g. a run report for the typed
                // entry point): nothing to run.
                no_form += 1;
                continue;
            }
            if !ran.contains(vector.name.as_str()) {
                if !self.filtered {
                    problems.push(format!("NOT RUN {surface} {}: the runner did not run this vector", vector.name));
                }
                continue;
            }
            for form in forms {
                if !self.results.contains_key(&(vector.name.clone(), form)) {
                    problems.push(format!(
                        "SKIPPED {surface} {} [{form}]: the form applies and {surface} declares it, but it did not run",
                        vector.name
                    ));
                }
            }
        }
        for gap in self.suite.gaps.gaps.iter().filter(|g| &g.surface == surface) {
            if !ran.contains(gap.vector.as_str()) && !self.filtered {
                problems.push(format!("NOT RUN {surface} {} [{}]: a declared gap was not run", gap.vector, gap.form));
            }
        }
        let forms: Vec<String> = per_form.iter().map(|(f, n)| format!("{n} {f}")).collect();
        let mut summary = format!(
            "{surface}: {} vectors, {} checks ({}), {} declared gaps; {no_form} vectors take none of its forms",
            ran.len(),
            self.results.len(),
            forms.join(", "),
            declared.len()
        );
        for d in &declared {
            let _ = write!(summary, "\n  declared gap, still failing: {d}");
        }
        if problems.is_empty() {
            Ok(summary)
        } else {
            Err(format!("{}\n{summary}", problems.join("\n")))
        }
    }
}
