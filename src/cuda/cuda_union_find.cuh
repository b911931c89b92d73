/* Internal: a concurrent union-find over an array of parents (each set a tree whose root is
 * its lowest index), shared by the volumes' hysteresis, the sub-pixel chaining and the
 * cluster Canny. The `_at` forms take a slot function, node -> pointer to its parent, for
 * parents spread over several memories (a cluster's shared memories). */
#ifndef EDGEL_CUDA_UNION_FIND_CUH
#define EDGEL_CUDA_UNION_FIND_CUH

template <typename L> struct flat_slots {
    L *label;
    __device__ L *operator()(L i) const { return label + i; }
};

template <typename L, typename S> __device__ L find_root_at(S slot, L a)
{
    L p;
    while ((p = *slot(a)) != a)
        a = p;
    return a;
}

/* The root, each node on the way pointed at its grandparent (for sets that are long paths,
 * as chains of points are): a node's parent only moves up its tree, so a stale read still
 * writes an ancestor. */
template <typename L, typename S> __device__ L find_root_halving_at(S slot, L a)
{
    for (;;) {
        const L p = *slot(a);
        if (p == a)
            return a;
        const L g = *slot(p);
        if (g != p)
            *slot(a) = g;
        a = g;
    }
}

/* The root, every node on the way pointed at it: for use once no join runs, when roots are
 * final and every store is of the root, so concurrent calls agree. */
template <typename L, typename S> __device__ L find_root_compressing_at(S slot, L a)
{
    const L root = find_root_at(slot, a);
    for (L p; (p = *slot(a)) != root;) {
        *slot(a) = root;
        a = p;
    }
    return root;
}

/* Joins the sets of a and b: the larger root points to the smaller (a CAS that fails means
 * another thread moved that root first: try again from where it now points). A CAS only
 * moves a root, and halving only moves nodes that are no longer roots, so they never race. */
template <typename L, bool HALVE, typename S> __device__ void join_at(S slot, L a, L b)
{
    for (;;) {
        if (HALVE)
            a = find_root_halving_at(slot, a), b = find_root_halving_at(slot, b);
        else
            a = find_root_at(slot, a), b = find_root_at(slot, b);
        if (a == b)
            return;
        if (a < b) {
            const L t = a;
            a = b, b = t;
        }
        const L old = atomicCAS((L *)slot(a), a, b);
        if (old == a)
            return;
        a = old;
    }
}

template <typename L> __device__ L find_root(const L *label, L a)
{
    return find_root_at(flat_slots<L>{(L *)label}, a);
}

template <typename L, bool HALVE = false> __device__ void join(L *label, L a, L b)
{
    join_at<L, HALVE>(flat_slots<L>{label}, a, b);
}

#endif
