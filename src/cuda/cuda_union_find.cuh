/* Internal: a concurrent union-find over an array of parents (each set a tree whose root is
 * its lowest index), shared by the volumes' hysteresis and the sub-pixel chaining. */
#ifndef EDGEL_CUDA_UNION_FIND_CUH
#define EDGEL_CUDA_UNION_FIND_CUH

template <typename L> __device__ L find_root(const L *label, L a)
{
    L p;
    while ((p = label[a]) != a)
        a = p;
    return a;
}

/* The root, each node on the way pointed at its grandparent (for sets that are long paths,
 * as chains of points are): a node's parent only moves up its tree, so a stale read still
 * writes an ancestor. */
template <typename L> __device__ L find_root_halving(L *label, L a)
{
    for (;;) {
        const L p = label[a];
        if (p == a)
            return a;
        const L g = label[p];
        if (g != p)
            label[a] = g;
        a = g;
    }
}

/* Joins the sets of a and b: the larger root points to the smaller (a CAS that fails means
 * another thread moved that root first: try again from where it now points). */
template <typename L, bool HALVE = false> __device__ void join(L *label, L a, L b)
{
    for (;;) {
        if (HALVE)
            a = find_root_halving(label, a), b = find_root_halving(label, b);
        else
            a = find_root(label, a), b = find_root(label, b);
        if (a == b)
            return;
        if (a < b) {
            const L t = a;
            a = b, b = t;
        }
        const L old = atomicCAS(label + a, a, b);
        if (old == a)
            return;
        a = old;
    }
}

#endif
