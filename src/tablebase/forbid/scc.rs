//! Strongly connected components of a large implicit graph: Pearce's one-array variant of
//! Tarjan's algorithm, without recursion, with successors generated on demand.
//!
//! Memory: one `u32` per vertex, the Tarjan stack (at most one `u32` per vertex), the depth-first
//! path and the successors of the vertices on it that were unvisited when they were expanded.
//! Components are reported as soon as they are complete, in reverse topological order: every
//! component is reported after all the components it has an edge into.

/// Marks a vertex whose component is complete (values at or above it are never indexes).
const DONE: u32 = u32::MAX;

/// One vertex on the depth-first path.
struct Frame {
    vertex: u32,
    /// Where this vertex's pending successors start on the shared successor stack.
    pending_from: usize,
    /// No successor reached an earlier vertex still on the stack (so far).
    root: bool,
}

/// Finds the strongly connected components of the graph on vertices `0..n` whose successors
/// `successors(v, out)` pushes onto `out`, and calls `component(vertices)` for each, in reverse
/// topological order. `n` must be below `u32::MAX / 2`.
pub fn strongly_connected(
    n: u32,
    mut successors: impl FnMut(u32, &mut Vec<u32>),
    mut component: impl FnMut(&[u32]),
) {
    assert!(n < u32::MAX / 2, "too many vertices: {n}");
    // 0: unvisited; 1..: the visit index, lowered to the lowest index reached (lowlink) while
    // the vertex is open; DONE once its component is reported.
    let mut rindex = vec![0u32; n as usize];
    let mut next_index = 1u32;
    let mut stack: Vec<u32> = Vec::new();
    let mut path: Vec<Frame> = Vec::new();
    let mut pending: Vec<u32> = Vec::new();
    let mut scratch: Vec<u32> = Vec::new();
    let mut members: Vec<u32> = Vec::new();

    for start in 0..n {
        if rindex[start as usize] != 0 {
            continue;
        }
        let mut enter = Some(start);
        loop {
            if let Some(v) = enter.take() {
                // Expand `v`: visited successors lower its link at once (a vertex still open
                // then stays open until `v` is finished, so its index is as good now as later);
                // unvisited ones wait on the pending stack.
                rindex[v as usize] = next_index;
                next_index += 1;
                let mut root = true;
                scratch.clear();
                successors(v, &mut scratch);
                let pending_from = pending.len();
                for &w in &scratch {
                    let rw = rindex[w as usize];
                    if rw == 0 {
                        pending.push(w);
                    } else if rw < rindex[v as usize] {
                        rindex[v as usize] = rw;
                        root = false;
                    }
                }
                path.push(Frame {
                    vertex: v,
                    pending_from,
                    root,
                });
            }
            let Some(frame) = path.last_mut() else {
                break;
            };
            if pending.len() > frame.pending_from {
                let w = pending.pop().expect("pending successor");
                let rw = rindex[w as usize];
                if rw == 0 {
                    enter = Some(w);
                } else if rw < rindex[frame.vertex as usize] {
                    rindex[frame.vertex as usize] = rw;
                    frame.root = false;
                }
                continue;
            }
            // All successors done: finish the vertex.
            let Frame {
                vertex: v, root, ..
            } = path.pop().expect("a frame");
            if root {
                members.clear();
                members.push(v);
                while let Some(&w) = stack.last() {
                    if rindex[w as usize] < rindex[v as usize] {
                        break;
                    }
                    stack.pop();
                    rindex[w as usize] = DONE;
                    members.push(w);
                }
                rindex[v as usize] = DONE;
                component(&members);
            } else {
                stack.push(v);
            }
            if let Some(parent) = path.last_mut() {
                let rv = rindex[v as usize];
                if rv < rindex[parent.vertex as usize] {
                    rindex[parent.vertex as usize] = rv;
                    parent.root = false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Reachability by brute force: `reach[u][v]`.
    fn closure(adjacency: &[Vec<u32>]) -> Vec<Vec<bool>> {
        let n = adjacency.len();
        (0..n)
            .map(|s| {
                let mut seen = vec![false; n];
                let mut todo = vec![s];
                seen[s] = true;
                while let Some(u) = todo.pop() {
                    for &w in &adjacency[u] {
                        if !seen[w as usize] {
                            seen[w as usize] = true;
                            todo.push(w as usize);
                        }
                    }
                }
                seen
            })
            .collect()
    }

    #[test]
    fn components_match_mutual_reachability_in_reverse_topological_order() {
        let mut rng = StdRng::seed_from_u64(23);
        for trial in 0..300 {
            let n = rng.random_range(1..40u32);
            let density = rng.random_range(0.0..3.0) / f64::from(n);
            let adjacency: Vec<Vec<u32>> = (0..n)
                .map(|_| {
                    (0..n)
                        .filter(|_| rng.random_bool(density.min(1.0)))
                        .collect()
                })
                .collect();
            let reach = closure(&adjacency);
            let mut order = vec![u32::MAX; n as usize];
            let mut count = 0;
            strongly_connected(
                n,
                |v, out| out.extend_from_slice(&adjacency[v as usize]),
                |members| {
                    for &m in members {
                        assert_eq!(order[m as usize], u32::MAX, "trial {trial}: twice");
                        order[m as usize] = count;
                    }
                    count += 1;
                },
            );
            for u in 0..n as usize {
                for v in 0..n as usize {
                    let same = reach[u][v] && reach[v][u];
                    assert_eq!(order[u] == order[v], same, "trial {trial}: {u} {v}");
                }
                for &w in &adjacency[u] {
                    // An edge leads to a component reported no later.
                    assert!(order[w as usize] <= order[u], "trial {trial}: {u} -> {w}");
                }
            }
        }
    }

    #[test]
    fn a_long_path_and_a_long_cycle_need_no_recursion() {
        let n = 1_000_000u32;
        let mut sizes = Vec::new();
        strongly_connected(
            n,
            |v, out| out.extend((v + 1 < n).then_some(v + 1)),
            |m| sizes.push(m.len()),
        );
        assert_eq!(sizes.len(), n as usize);
        let mut sizes = Vec::new();
        strongly_connected(n, |v, out| out.push((v + 1) % n), |m| sizes.push(m.len()));
        assert_eq!(sizes, vec![n as usize]);
    }
}
