//! No import circle among the files of `src/`: a file that reaches another file (by `use`, or by a
//! `crate::`/`super::`/`self::` path anywhere in its code) must not be reached back from it through
//! any chain of files. The core (store, rollout, search, workers) then reads the same whichever
//! edge (cli, config, tui) is built on top of it.
//!
//! The reader follows the module tree from `src/lib.rs` (`mod x;`, `#[path]`, inline modules),
//! leaves `#[cfg(test)]` modules and items out (tests may reach anywhere), resolves every path
//! through the modules and the names each module imports (a `pub use` re-export leads on to the
//! file that defines the item), and finds the strongly connected files (Tarjan). It is written
//! here rather than taken from a crate because the crates that draw module graphs build the whole
//! of rust-analyzer, which would multiply CI's build time; this needs only `syn`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// One module of the crate: where its code is and what it names.
struct Module {
    path: Vec<String>,
    file: PathBuf,
    parent: Option<usize>,
    children: HashMap<String, usize>,
    /// Names brought in by `use`, to the path they stand for (relative to this module).
    uses: HashMap<String, Vec<String>>,
    /// Modules whose every name is brought in (`use x::*`).
    globs: Vec<Vec<String>>,
    /// Every path written in this module's own code (not its child modules').
    paths: Vec<Vec<String>>,
}

struct Crate {
    modules: Vec<Module>,
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| match &a.meta {
        syn::Meta::List(list) if list.path.is_ident("cfg") => {
            let text = list.tokens.to_string();
            text.contains("test") && !text.contains("not")
        }
        _ => false,
    })
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// Collects the paths and `use` names of one module's own items.
struct Collector<'a> {
    module: &'a mut Module,
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {
        // Child modules are read as modules of their own.
    }
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if is_cfg_test(&item.attrs) {
            return;
        }
        let mut prefix = Vec::new();
        if item.leading_colon.is_none() {
            collect_use(&item.tree, &mut prefix, self.module);
        }
    }
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if item_is_test(item) {
            return;
        }
        syn::visit::visit_item(self, item);
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_cfg_test(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }
    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() > 1 {
            let segs = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.module.paths.push(segs);
        }
        syn::visit::visit_path(self, path);
    }
}

fn item_is_test(item: &syn::Item) -> bool {
    let attrs = match item {
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        _ => return false,
    };
    is_cfg_test(attrs)
}

fn collect_use(tree: &syn::UseTree, prefix: &mut Vec<String>, module: &mut Module) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            collect_use(&p.tree, prefix, module);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut full = prefix.clone();
            let alias = if name == "self" {
                prefix.last().cloned().unwrap_or_default()
            } else {
                full.push(name.clone());
                name
            };
            module.uses.insert(alias, full);
        }
        syn::UseTree::Rename(r) => {
            let mut full = prefix.clone();
            if r.ident != "self" {
                full.push(r.ident.to_string());
            }
            module.uses.insert(r.rename.to_string(), full);
        }
        syn::UseTree::Glob(_) => module.globs.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                collect_use(t, prefix, module);
            }
        }
    }
}

impl Crate {
    fn read(lib: &Path) -> Crate {
        let mut krate = Crate {
            modules: Vec::new(),
        };
        let dir = lib.parent().expect("lib.rs has a folder").to_path_buf();
        krate.read_file(lib, dir, Vec::new(), None);
        krate
    }

    fn new_module(&mut self, path: Vec<String>, file: &Path, parent: Option<usize>) -> usize {
        self.modules.push(Module {
            path,
            file: file.to_path_buf(),
            parent,
            children: HashMap::new(),
            uses: HashMap::new(),
            globs: Vec::new(),
            paths: Vec::new(),
        });
        self.modules.len() - 1
    }

    /// Reads one file as module `path`; `dir` is where its `mod x;` children are found.
    fn read_file(
        &mut self,
        file: &Path,
        dir: PathBuf,
        path: Vec<String>,
        parent: Option<usize>,
    ) -> usize {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let id = self.new_module(path, file, parent);
        self.read_items(id, &ast.items, file, &dir);
        id
    }

    fn read_items(&mut self, id: usize, items: &[syn::Item], file: &Path, dir: &Path) {
        let mut collector = Collector {
            module: &mut self.modules[id],
        };
        for item in items {
            collector.visit_item(item);
        }
        for item in items {
            let syn::Item::Mod(m) = item else { continue };
            if is_cfg_test(&m.attrs) {
                continue;
            }
            let name = m.ident.to_string();
            let mut path = self.modules[id].path.clone();
            path.push(name.clone());
            let child = if let Some((_, inline)) = &m.content {
                let child = self.new_module(path, file, Some(id));
                self.read_items(child, inline, file, &dir.join(&name));
                child
            } else {
                let (child_file, child_dir) = match path_attr(&m.attrs) {
                    Some(p) => {
                        // Beside the declaring file, whatever kind of file it is.
                        let f = file.parent().expect("a file has a folder").join(p);
                        let d = f.parent().expect("a file has a folder").to_path_buf();
                        (f, d)
                    }
                    None if dir.join(format!("{name}.rs")).exists() => {
                        (dir.join(format!("{name}.rs")), dir.join(&name))
                    }
                    None => (dir.join(&name).join("mod.rs"), dir.join(&name)),
                };
                self.read_file(&child_file, child_dir, path, Some(id))
            };
            self.modules[id].children.insert(name, child);
        }
    }

    /// The module a path's first segment starts from, and the rest of the path.
    fn start<'p>(&self, at: usize, path: &'p [String]) -> Option<(usize, &'p [String])> {
        let first = path.first()?;
        match first.as_str() {
            "crate" => Some((0, &path[1..])),
            "self" => Some((at, &path[1..])),
            "super" => {
                let up = self.modules[at].parent?;
                self.start(up, &path[1..]).or(Some((up, &path[1..])))
            }
            _ => Some((at, path)),
        }
    }

    /// The file that defines what `path`, written in module `at`, names; `None` outside the crate.
    fn resolve(&self, at: usize, path: &[String], depth: usize) -> Option<usize> {
        if depth > 16 {
            return None;
        }
        let (mut m, rest) = self.start(at, path)?;
        let relative = m == at && path.first().is_some_and(|f| f != "self");
        for (i, seg) in rest.iter().enumerate() {
            if let Some(&child) = self.modules[m].children.get(seg) {
                m = child;
                continue;
            }
            if let Some(target) = self.modules[m].uses.get(seg) {
                let mut next = target.clone();
                next.extend(rest[i + 1..].iter().cloned());
                return self.resolve(m, &next, depth + 1).or(Some(m));
            }
            if i == 0 && relative {
                return None; // a local name, a prelude name or another crate
            }
            return Some(m);
        }
        Some(m)
    }

    /// The files each file reaches, with one path that shows each edge.
    fn edges(&self) -> BTreeMap<PathBuf, BTreeMap<PathBuf, String>> {
        let mut edges: BTreeMap<PathBuf, BTreeMap<PathBuf, String>> = BTreeMap::new();
        for (id, module) in self.modules.iter().enumerate() {
            let mut written: Vec<&Vec<String>> = module.uses.values().collect();
            written.extend(module.globs.iter());
            written.extend(module.paths.iter());
            for path in written {
                let Some(to) = self.resolve(id, path, 0) else {
                    continue;
                };
                let to_file = &self.modules[to].file;
                if *to_file != module.file {
                    edges
                        .entry(module.file.clone())
                        .or_default()
                        .entry(to_file.clone())
                        .or_insert_with(|| path.join("::"));
                }
            }
        }
        edges
    }
}

/// The groups of files that reach each other, each sorted, largest first.
fn circles(edges: &BTreeMap<PathBuf, BTreeMap<PathBuf, String>>) -> Vec<Vec<PathBuf>> {
    let nodes: BTreeSet<&PathBuf> = edges
        .iter()
        .flat_map(|(from, tos)| std::iter::once(from).chain(tos.keys()))
        .collect();
    let nodes: Vec<&PathBuf> = nodes.into_iter().collect();
    let index: HashMap<&PathBuf, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            edges
                .get(*n)
                .map(|tos| tos.keys().map(|t| index[t]).collect())
                .unwrap_or_default()
        })
        .collect();
    let mut found: Vec<Vec<PathBuf>> = tarjan(&adj)
        .into_iter()
        .filter(|scc| scc.len() > 1)
        .map(|scc| {
            let mut files: Vec<PathBuf> = scc.iter().map(|&i| nodes[i].clone()).collect();
            files.sort();
            files
        })
        .collect();
    found.sort_by_key(|c| std::cmp::Reverse(c.len()));
    found
}

/// Strongly connected components, iteratively (no recursion depth to worry about).
fn tarjan(adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = adj.len();
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on_stack, mut stack, mut out) = (vec![false; n], Vec::new(), Vec::new());
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = adj[v].get(*edge) {
                *edge += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
}

fn describe(root: &Path, edges: &BTreeMap<PathBuf, BTreeMap<PathBuf, String>>) -> String {
    let rel = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    let mut text = String::new();
    for circle in circles(edges) {
        text.push_str(&format!("a circle of {} files:\n", circle.len()));
        for from in &circle {
            for (to, via) in edges.get(from).into_iter().flatten() {
                if circle.contains(to) {
                    text.push_str(&format!("  {} -> {} ({via})\n", rel(from), rel(to)));
                }
            }
        }
    }
    text
}

#[test]
fn no_file_of_src_reaches_itself_through_others() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let krate = Crate::read(&root.join("src/lib.rs"));
    assert!(
        krate.modules.len() > 50,
        "the reader found the crate's modules"
    );
    let edges = krate.edges();
    let found = describe(root, &edges);
    assert!(
        found.is_empty(),
        "import circles among src/ files:\n{found}"
    );
}

#[test]
fn the_reader_finds_a_circle_and_only_a_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |name: &str, text: &str| {
        let path = src.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("lib.rs", "pub mod a;\npub mod b;\npub mod c;\nmod d;\n");
    // a -> b by `use`, b -> a by a path in an expression: a circle.
    write(
        "a.rs",
        "use crate::b::Thing;\npub fn f() -> Thing { Thing }\n",
    );
    write("b.rs", "pub struct Thing;\npub fn g() { crate::a::f(); }\n");
    // c -> a only, and a test module of c's reaching back is not code: no circle.
    write(
        "c.rs",
        "use super::a;\npub fn h() { a::f(); }\n#[cfg(test)]\nmod tests { use crate::c::h; }\n",
    );
    // d's child reaches d through `super::` and d re-exports the child: the re-export leads on.
    write(
        "d/mod.rs",
        "mod inner;\npub use inner::Deep;\npub struct Top;\n",
    );
    write(
        "d/inner.rs",
        "pub struct Deep;\npub fn k() -> super::Deep { Deep }\n",
    );
    let krate = Crate::read(&src.join("lib.rs"));
    let edges = krate.edges();
    let found = circles(&edges);
    let rel: Vec<Vec<String>> = found
        .iter()
        .map(|c| {
            c.iter()
                .map(|p| p.strip_prefix(src).unwrap().display().to_string())
                .collect()
        })
        .collect();
    assert_eq!(rel, vec![vec!["a.rs".to_string(), "b.rs".to_string()]]);
    // And a child reaching what its parent defines (not re-exports) is a circle.
    write(
        "d/inner.rs",
        "pub struct Deep;\npub fn k() -> super::Top { super::Top }\n",
    );
    let found = circles(&Crate::read(&src.join("lib.rs")).edges());
    assert_eq!(found.len(), 2, "{found:?}");
}
