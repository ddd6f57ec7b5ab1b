//! No two files of the library import each other, directly or around a cycle.
//!
//! Every file under `src/` is a node (`src/lib.rs` is `crate`, `src/a/mod.rs`
//! and `src/a.rs` are `crate::a`, `src/a/b.rs` is `crate::a::b`;
//! `src/main.rs` is the binary's own crate and is left out). File `f` has an
//! edge to file `g ≠ f` when the code of `f` (comments and string literals
//! stripped, test modules included) names an item defined in `g`:
//!
//! - a path `crate::…`, `super::…` (inside an inline `mod … { }` block,
//!   `super` is the enclosing module), `self::…`, or `child::…` for a child
//!   module `child` of `f`, in code or in a `use` (groups `{a::b, c}`
//!   expanded);
//! - resolved to the longest prefix that is a file, then through that file's
//!   `use` items, so that `super::Q`, which the parent re-exports from
//!   `exact.rs`, is an edge to `exact.rs`, not to the parent.
//!
//! A parent declaring `mod child;` is not an edge, and neither is its
//! `pub use child::Item` (a re-export of its own descendant declares the
//! module's public face; a name used through it leads to the child). A
//! parent's code that uses a child's item is an edge, and so is a child's use
//! of an item its parent defines: the two together are a cycle, broken by
//! moving the shared item into a file below both.
//!
//! The test fails with every strongly connected component of more than one
//! file that [`ALLOWED`] does not list, and with every listed one that no
//! longer exists.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Cycles allowed, each as its set of files, listed so that the list can
/// only shrink: none.
const ALLOWED: &[&[&str]] = &[];

/// The module path (`["crate", "a", "b"]`) of a file under `src/`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs").to_string();
    if !(stem == "mod" || (parts.is_empty() && stem == "lib")) {
        parts.push(stem);
    }
    let mut path = vec!["crate".to_string()];
    path.extend(parts);
    path
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source with comments, string and char literals blanked (newlines and
/// braces outside them kept).
fn strip(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && is_raw_start(&chars, i) {
            let mut j = i + 1;
            let mut hashes = 0;
            while chars[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && is_char_literal(&chars, i) {
            i += 1;
            while chars[i] != '\'' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_raw_start(chars: &[char], i: usize) -> bool {
    let prev_ident = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
    if prev_ident {
        return false;
    }
    let mut j = i + 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    chars.get(j) == Some(&'"')
}

/// `'x'`, `'\n'`, `'\u{..}'` — not a lifetime `'a`.
fn is_char_literal(chars: &[char], i: usize) -> bool {
    matches!(
        (chars.get(i + 1), chars.get(i + 2)),
        (Some('\\'), _) | (Some(_), Some('\''))
    )
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// One name a `use` brings into a module: `name` stands for `path`.
struct Import {
    /// The module the `use` is written in (inline `mod` blocks included).
    module: Vec<String>,
    /// The name it binds (the last segment, or the `as` alias; `*` for a glob).
    name: String,
    /// The path it names, as written.
    path: Vec<String>,
    /// `pub use` / `pub(crate) use`: a re-export.
    public: bool,
}

/// What a file names: its `use` items and the other paths of its code, each
/// with the module it is written in.
#[derive(Default)]
struct Names {
    imports: Vec<Import>,
    paths: Vec<(Vec<String>, Vec<String>)>,
}

fn skip_ws(chars: &[char], mut j: usize) -> usize {
    while j < chars.len() && chars[j].is_whitespace() {
        j += 1;
    }
    j
}

fn word_at(chars: &[char], i: usize) -> (String, usize) {
    let mut j = i;
    while j < chars.len() && is_ident(chars[j]) {
        j += 1;
    }
    (chars[i..j].iter().collect(), j)
}

/// A use tree from `chars[i]`: each leaf as (path, bound name); the index
/// after the tree.
fn use_tree(chars: &[char], i: usize, prefix: &[String]) -> (Vec<(Vec<String>, String)>, usize) {
    let mut path = prefix.to_vec();
    let mut i = skip_ws(chars, i);
    loop {
        if chars.get(i) == Some(&'{') {
            let mut leaves = Vec::new();
            i += 1;
            loop {
                i = skip_ws(chars, i);
                match chars.get(i) {
                    Some('}') => return (leaves, i + 1),
                    Some(',') => i += 1,
                    None => return (leaves, i),
                    _ => {
                        let (mut sub, end) = use_tree(chars, i, &path);
                        leaves.append(&mut sub);
                        i = end;
                    }
                }
            }
        }
        if chars.get(i) == Some(&'*') {
            return (vec![(path, "*".into())], i + 1);
        }
        let (word, end) = word_at(chars, i);
        if word.is_empty() {
            return (Vec::new(), i);
        }
        i = skip_ws(chars, end);
        if chars.get(i) == Some(&':') && chars.get(i + 1) == Some(&':') {
            path.push(word);
            i = skip_ws(chars, i + 2);
            continue;
        }
        // A leaf: `self` names the prefix itself; `as` renames.
        let mut name = word.clone();
        if word != "self" {
            path.push(word);
        } else {
            name = path.last().cloned().unwrap_or_default();
        }
        let (next, after) = word_at(chars, i);
        if next == "as" {
            let (alias, after_alias) = word_at(chars, skip_ws(chars, after));
            name = alias;
            i = after_alias;
        }
        return (vec![(path, name)], i);
    }
}

/// The names a file's code uses (comments and literals already stripped).
fn names(code: &str, file_module: &[String]) -> Names {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Names::default();
    // Inline modules: (name, brace depth at which their body opened).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut pending_mod: Option<String> = None;
    let mut public = false;
    let mut i = 0;
    let module_here = |inline: &Vec<(String, usize)>| {
        let mut m = file_module.to_vec();
        m.extend(inline.iter().map(|(n, _)| n.clone()));
        m
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' => {
                depth += 1;
                if let Some(name) = pending_mod.take() {
                    inline.push((name, depth));
                }
                public = false;
                i += 1;
                continue;
            }
            '}' => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                public = false;
                i += 1;
                continue;
            }
            ';' => {
                pending_mod = None;
                public = false;
                i += 1;
                continue;
            }
            _ => {}
        }
        if !(is_ident(c) && (i == 0 || !is_ident(chars[i - 1]))) {
            i += 1;
            continue;
        }
        let start = i;
        let (word, end) = word_at(&chars, i);
        i = end;
        let after_colons = start >= 2 && chars[start - 1] == ':' && chars[start - 2] == ':';
        match word.as_str() {
            "pub" => {
                public = true;
                continue;
            }
            "mod" => {
                let (name, after) = word_at(&chars, skip_ws(&chars, i));
                pending_mod = Some(name);
                i = after;
                continue;
            }
            "use" if !after_colons => {
                let (leaves, after) = use_tree(&chars, i, &[]);
                let module = module_here(&inline);
                for (path, name) in leaves {
                    out.imports.push(Import {
                        module: module.clone(),
                        name,
                        path,
                        public,
                    });
                }
                public = false;
                i = after;
                continue;
            }
            _ => {}
        }
        if after_colons || !(chars.get(i) == Some(&':') && chars.get(i + 1) == Some(&':')) {
            continue;
        }
        // A path in code: `word::seg::seg` (a turbofish or generic ends it).
        let mut path = vec![word];
        while chars.get(i) == Some(&':') && chars.get(i + 1) == Some(&':') {
            let (seg, after) = word_at(&chars, skip_ws(&chars, i + 2));
            if seg.is_empty() {
                break;
            }
            path.push(seg);
            i = after;
        }
        out.paths.push((module_here(&inline), path));
    }
    out
}

/// The absolute path a path names, or `None` when it does not start in this
/// crate (`std::…`, a type's associated item, …).
fn absolute(
    module: &[String],
    path: &[String],
    modules: &BTreeMap<Vec<String>, PathBuf>,
) -> Option<Vec<String>> {
    let mut segs = path.iter().peekable();
    let mut base: Vec<String>;
    match path.first()?.as_str() {
        "crate" => {
            base = vec!["crate".into()];
            segs.next();
        }
        "self" => {
            base = module.to_vec();
            segs.next();
        }
        "super" => {
            base = module.to_vec();
            while segs.peek().is_some_and(|s| *s == "super") {
                segs.next();
                base.pop();
            }
        }
        first => {
            // A child module of the current module, named without `self::`.
            let mut child = module.to_vec();
            child.push(first.to_string());
            if !modules.contains_key(&child) {
                return None;
            }
            base = module.to_vec();
        }
    }
    if base.is_empty() {
        return None;
    }
    base.extend(segs.cloned());
    Some(base)
}

/// The file that defines what an absolute path names: the file of its
/// longest module prefix, followed through that file's `use` items (so
/// `super::Q`, re-exported by the parent from `exact.rs`, is `exact.rs`).
fn defining_file(
    abs: &[String],
    modules: &BTreeMap<Vec<String>, PathBuf>,
    imports: &BTreeMap<Vec<String>, Vec<&Import>>,
    hops: usize,
) -> Option<PathBuf> {
    let n = (1..=abs.len())
        .rev()
        .find(|n| modules.contains_key(&abs[..*n]))?;
    let (module, rest) = abs.split_at(n);
    if let (Some(name), true) = (rest.first(), hops < 16) {
        let found = imports
            .get(module)
            .and_then(|list| list.iter().find(|imp| imp.name == *name));
        if let Some(imp) = found {
            if let Some(mut target) = absolute(&imp.module, &imp.path, modules) {
                target.extend(rest[1..].iter().cloned());
                return defining_file(&target, modules, imports, hops + 1);
            }
        }
    }
    modules.get(module).cloned()
}

/// Tarjan's strongly connected components.
fn components(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in &s.graph[v] {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(w);
                comp.push(w.clone());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// Which file names an item of which: the edges of the files of `src/`
/// (paths relative to it), each with the path that makes it, as evidence.
type Graph = BTreeMap<PathBuf, BTreeSet<PathBuf>>;
type Evidence = BTreeMap<(PathBuf, PathBuf), String>;

fn file_graph() -> (Graph, Evidence) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    // `main.rs` is the binary's own crate root, not a module of the library.
    files.retain(|f| f.file_name().is_some_and(|n| n != "main.rs") || f.parent() != Some(&src));
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| {
            (
                module_of(&src, f),
                f.strip_prefix(&src).unwrap().to_path_buf(),
            )
        })
        .collect();
    assert!(
        modules.len() > 50,
        "too few files found under {}",
        src.display()
    );
    let parsed: Vec<(Vec<String>, Names)> = files
        .iter()
        .map(|file| {
            let module = module_of(&src, file);
            let code = strip(&fs::read_to_string(file).unwrap());
            let names = names(&code, &module);
            (module, names)
        })
        .collect();
    let mut imports: BTreeMap<Vec<String>, Vec<&Import>> = BTreeMap::new();
    for (_, names) in &parsed {
        for imp in &names.imports {
            imports.entry(imp.module.clone()).or_default().push(imp);
        }
    }
    let mut graph = Graph::new();
    let mut evidence = Evidence::new();
    for (module, names) in &parsed {
        let me = modules[module].clone();
        let edges = graph.entry(me.clone()).or_default();
        // A re-export of the file's own descendant declares the module tree,
        // like `mod child;`: not an edge. Any other `use`, and every path in
        // code, is one.
        let used = names
            .imports
            .iter()
            .filter(|imp| {
                let target = absolute(&imp.module, &imp.path, &modules);
                let own = target.is_some_and(|t| t.len() > module.len() && t.starts_with(module));
                !(imp.public && own)
            })
            .map(|imp| (&imp.module, &imp.path))
            .chain(names.paths.iter().map(|(m, p)| (m, p)));
        for (within, path) in used {
            let Some(abs) = absolute(within, path, &modules) else {
                continue;
            };
            if let Some(target) = defining_file(&abs, &modules, &imports, 0) {
                if target != me {
                    evidence
                        .entry((me.clone(), target.clone()))
                        .or_insert_with(|| path.join("::"));
                    edges.insert(target);
                }
            }
        }
    }
    (graph, evidence)
}

#[test]
fn no_import_cycles_between_files() {
    let (graph, evidence) = file_graph();
    let cycles = components(&graph);
    let names = |comp: &Vec<PathBuf>| -> BTreeSet<String> {
        comp.iter().map(|f| f.display().to_string()).collect()
    };
    let allowed: Vec<BTreeSet<String>> = ALLOWED
        .iter()
        .map(|c| c.iter().map(|f| f.to_string()).collect())
        .collect();
    let report: Vec<String> = cycles
        .iter()
        .filter(|comp| !allowed.contains(&names(comp)))
        .map(|comp| {
            let members: BTreeSet<&PathBuf> = comp.iter().collect();
            let lines: Vec<String> = comp
                .iter()
                .flat_map(|f| {
                    graph[f]
                        .iter()
                        .filter(|g| members.contains(g))
                        .map(|g| {
                            format!(
                                "    {} -> {} ({})",
                                f.display(),
                                g.display(),
                                evidence[&(f.clone(), g.clone())]
                            )
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
            format!("  cycle among {} files:\n{}", comp.len(), lines.join("\n"))
        })
        .collect();
    assert!(
        report.is_empty(),
        "import cycles between files of src/:\n{}",
        report.join("\n")
    );
    let found: Vec<BTreeSet<String>> = cycles.iter().map(names).collect();
    let gone: Vec<&BTreeSet<String>> = allowed.iter().filter(|c| !found.contains(c)).collect();
    assert!(
        gone.is_empty(),
        "allowed cycles that no longer exist (remove them from ALLOWED): {gone:?}"
    );
}

/// The layers of `ARCHITECTURE.md`'s table, in order: the file or folder
/// names of each row's first cell (`num/` as `num`), the header left out.
fn layers() -> Vec<Vec<String>> {
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
        .expect("ARCHITECTURE.md is readable");
    let table = text
        .split("## Layers")
        .nth(1)
        .expect("ARCHITECTURE.md has a section Layers");
    table
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        // The header row and the separator.
        .skip(2)
        .filter_map(|l| l.split('|').nth(1))
        .map(|cell| {
            cell.split(',')
                .map(|name| {
                    name.trim()
                        .trim_matches('`')
                        .trim_end_matches('/')
                        .to_string()
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The row of `layers` that holds `file` (a path under `src/`): the longest
/// name that is the file's path without `.rs` or a folder above it.
fn layer_of(layers: &[Vec<String>], file: &Path) -> Option<usize> {
    let path = file.with_extension("").display().to_string();
    layers
        .iter()
        .enumerate()
        .flat_map(|(i, names)| names.iter().map(move |n| (i, n)))
        .filter(|(_, n)| path == **n || path.starts_with(&format!("{n}/")))
        .max_by_key(|(_, n)| n.len())
        .map(|(i, _)| i)
}

/// The layer of an edge's target: `proofs/`, the registry of claims, is
/// mounted as `crate::proofs` from outside `src/`, so the graph sees a use of
/// it (`why`, the path named) as an edge to `lib.rs`; it is `verify`'s.
fn target_layer(layers: &[Vec<String>], target: &Path, why: &str) -> Option<usize> {
    if target == Path::new("lib.rs") && why.starts_with("crate::proofs") {
        layer_of(layers, Path::new("verify"))
    } else {
        layer_of(layers, target)
    }
}

/// `ARCHITECTURE.md` says that each layer uses only the layers above it in
/// its table: every edge between files goes from a row to the same row or
/// one above. A file in no row (a crate or folder root) may only declare
/// modules: it has no edge.
#[test]
fn each_layer_uses_only_the_layers_above_it() {
    let layers = layers();
    assert!(
        layers.len() >= 10 && layers[0].contains(&"error".to_string()),
        "the layer table of ARCHITECTURE.md was not read: {layers:?}"
    );
    let (graph, evidence) = file_graph();
    let mut wrong = Vec::new();
    for (file, targets) in &graph {
        let Some(mine) = layer_of(&layers, file) else {
            for target in targets {
                wrong.push(format!(
                    "  {} is in no layer but uses {} ({})",
                    file.display(),
                    target.display(),
                    evidence[&(file.clone(), target.clone())]
                ));
            }
            continue;
        };
        for target in targets {
            let why = &evidence[&(file.clone(), target.clone())];
            if target_layer(&layers, target, why).is_none_or(|theirs| theirs > mine) {
                wrong.push(format!(
                    "  {} (layer {}) uses {} ({why}), which is below it",
                    file.display(),
                    layers[mine].join(", "),
                    target.display(),
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layer order of ARCHITECTURE.md:\n{}",
        wrong.join("\n")
    );
}
