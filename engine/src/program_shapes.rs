//! The shapes a value of a declared type can take by the types of its fields (cycles, sharing):
//! what a static's first-access value may claim (`Program::fill_static`).

use crate::class::FieldType;
use crate::program::Program;

impl Program {
    /// Which shapes the objects a value of declared type `t` reaches can take, by the types
    /// of the fields they have (every non-abstract subtype's, as the instance refinement
    /// draws them): a cycle needs a cycle of field types, two paths that meet need a class
    /// with two reference fields or an array of references. `Object`, interfaces and a type
    /// whose fields are unknown may take every shape.
    pub(crate) fn field_shapes(&self, t: &FieldType) -> crate::state::types::Shapes {
        let mut out = crate::state::types::Shapes::default();
        let mut done = std::collections::BTreeSet::new();
        self.visit_shapes(t, &mut Vec::new(), &mut done, &mut out);
        out
    }

    /// Depth-first over field types: `path` the declared types being explored (a field type
    /// on it closes a cycle), `done` those explored completely.
    fn visit_shapes(
        &self,
        t: &FieldType,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
        out: &mut crate::state::types::Shapes,
    ) {
        let class = match t {
            FieldType::Object(c) => c,
            FieldType::Array(elem) => {
                // two elements may be one object
                if elem.is_reference() {
                    out.sharing = true;
                    self.visit_shapes(elem, path, done, out);
                }
                return;
            }
            _ => return,
        };
        if out.cycles || done.contains(class) {
            return;
        }
        if path.contains(class) {
            *out = crate::state::types::Shapes::ANY;
            return;
        }
        let open = class == crate::models::OBJECT
            || !matches!(self.hierarchy.is_interface(class), Ok(false));
        let Some(subs) = (!open)
            .then(|| self.hierarchy.non_abstract_subtypes(class).ok())
            .flatten()
        else {
            *out = crate::state::types::Shapes::ANY;
            return;
        };
        path.push(class.clone());
        for sub in subs {
            let Ok(fields) = self.instance_fields(&sub) else {
                *out = crate::state::types::Shapes::ANY;
                break;
            };
            let refs: Vec<&FieldType> = fields
                .iter()
                .map(|(_, t, _)| t)
                .filter(|t| t.is_reference())
                .collect();
            out.sharing |= refs.len() > 1;
            for f in refs {
                self.visit_shapes(f, path, done, out);
            }
        }
        path.pop();
        done.insert(class.clone());
    }
}
