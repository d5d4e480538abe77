//! Strongly connected components of a location graph (Tarjan, iterative).

/// SCCs of the graph on nodes `0..n` with the given edges, each sorted, listed by smallest
/// member. Every node is in exactly one component (possibly a trivial one).
pub fn sccs(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut succ = vec![Vec::new(); n];
    for &(a, b) in edges {
        succ[a].push(b);
    }
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut counter = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next successor position)
        let mut work = vec![(root, 0usize)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if *i < succ[v].len() {
                let w = succ[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    loop {
                        let w = stack.pop().expect("tarjan stack");
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comp.sort_unstable();
                    out.push(comp);
                }
            }
        }
    }
    out.sort();
    out
}

/// The edges (by position in `edges`) that lie on a cycle, i.e. inside one SCC.
#[cfg(test)]
pub(crate) fn cyclic_edges(
    n: usize,
    edges: &[(usize, usize)],
) -> std::collections::BTreeSet<usize> {
    let mut comp = vec![0; n];
    for (c, members) in sccs(n, edges).iter().enumerate() {
        for &m in members {
            comp[m] = c;
        }
    }
    edges
        .iter()
        .enumerate()
        .filter(|(_, (a, b))| comp[*a] == comp[*b])
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    fn reach(n: usize, edges: &[(usize, usize)], a: usize, b: usize) -> bool {
        let mut seen = vec![false; n];
        let mut todo = vec![a];
        seen[a] = true;
        while let Some(v) = todo.pop() {
            for &(x, y) in edges {
                if x == v && !seen[y] {
                    seen[y] = true;
                    todo.push(y);
                }
            }
        }
        seen[b]
    }

    quickcheck! {
        fn components_are_mutual_reachability(raw: Vec<(u8, u8)>) -> bool {
            let n = 7;
            let edges: Vec<(usize, usize)> =
                raw.iter().map(|(a, b)| (*a as usize % n, *b as usize % n)).collect();
            let cs = sccs(n, &edges);
            let mut comp = vec![usize::MAX; n];
            for (i, c) in cs.iter().enumerate() {
                for &m in c { comp[m] = i; }
            }
            let partition = comp.iter().all(|&c| c != usize::MAX)
                && cs.iter().map(Vec::len).sum::<usize>() == n;
            let same = (0..n).all(|a| (0..n).all(|b| {
                (comp[a] == comp[b]) == (reach(n, &edges, a, b) && reach(n, &edges, b, a))
            }));
            let cyc = cyclic_edges(n, &edges);
            let edges_ok = edges.iter().enumerate().all(|(i, (a, b))| {
                cyc.contains(&i) == reach(n, &edges, *b, *a)
            });
            partition && same && edges_ok
        }
    }
}
