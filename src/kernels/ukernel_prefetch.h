/* Cache lines a kernel asks for while it computes: the operands of the
 * caller's next call. A burst of prefetches between calls fills the miss
 * buffers and the core waits on them as on loads; spread over a call's
 * loop, the requests overlap with its arithmetic (CPU time: grouped weights
 * pass -7%; depthwise weights pass -6% in fp32, -20% to -37% where its
 * planes are rounded or widened into the slot first). A hint: never read,
 * never needed for a result. */
#ifndef ACLCONV_UKERNEL_PREFETCH_H_
#define ACLCONV_UKERNEL_PREFETCH_H_

#include <stddef.h>

#define UKERNEL_CACHE_LINE 64

/* Most lines a call asks for into L1 (ukernel_prefetch_level). */
#define UKERNEL_L1_LINES_PER_CALL 64

/* Lines at[i] + UKERNEL_CACHE_LINE * l, l < lines[i], of two streams (a
 * stream with no lines is skipped; a zeroed struct asks for nothing), into
 * L1, or into L2 only when l2. */
typedef struct ukernel_prefetch {
    const char *at[2];
    size_t lines[2];
    int l2;
} ukernel_prefetch;

/* No lines. */
#define UKERNEL_PREFETCH_NONE ((ukernel_prefetch){{NULL, NULL}, {0, 0}, 0})

/* Sets where pf's lines go when `calls` kernel calls share them. Each line
 * asked for into L1 holds one of the core's L1 miss buffers until memory
 * answers; a call that asks for ~100 (the next fp32 3x3 planes of dw_3x3's
 * weights pass) fills them and then waits on its prefetches as on loads,
 * while requests into L2 leave them free: that pass -27% time (fp32), -16%
 * (cubeMathType 1). ~50 lines a call (the same planes in bf16) are better in
 * L1, which the widening copy reads right after (+10% from L2). */
static inline void ukernel_prefetch_level(ukernel_prefetch *pf, size_t calls)
{
    pf->l2 = pf->lines[0] + pf->lines[1] > UKERNEL_L1_LINES_PER_CALL * (calls ? calls : 1);
}

/* Asks for the line at a into L1 (l2 == 0) or L2; never faults (the line
 * is not read). An asm statement, not __builtin_prefetch: gcc 12 counts the
 * builtin as no side effect, so a helper whose only work is prefetching is
 * a const function to it, and a call to one is deleted unless inlined
 * first (docs/kernels.md, "Prefetch requests and the compiler": two helpers
 * never ran, and one more branch here took the dwrow kernels' requests). */
static inline void ukernel_prefetch_addr(const char *a, int l2)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (l2)
        __asm__ volatile("prefetcht1 %0" : : "m"(*a));
    else
        __asm__ volatile("prefetcht0 %0" : : "m"(*a));
#else
    if (l2)
        __builtin_prefetch(a, 0, 2);
    else
        __builtin_prefetch(a, 0, 3);
#endif
}

/* Asks for the lines at a + UKERNEL_CACHE_LINE * l that start before
 * a + bytes (bytes <= 0: none), into L1 or L2: a burst between calls. */
static inline void ukernel_prefetch_run(const char *a, ptrdiff_t bytes, int l2)
{
    for (ptrdiff_t b = 0; b < bytes; b += UKERNEL_CACHE_LINE)
        ukernel_prefetch_addr(a + b, l2);
}

/* Asks for the line at a as pf says. */
static inline void ukernel_prefetch_at(const ukernel_prefetch *pf, const char *a)
{
    ukernel_prefetch_addr(a, pf->l2);
}

/* Cache lines of a run of bytes. */
static inline size_t ukernel_lines(size_t bytes)
{
    return (bytes + UKERNEL_CACHE_LINE - 1) / UKERNEL_CACHE_LINE;
}

/* Part i of k of pf: each stream's lines [lines*i/k, lines*(i+1)/k). The
 * parts of i = 0 .. k-1 cover every line once. */
static inline ukernel_prefetch ukernel_prefetch_part(const ukernel_prefetch *pf, size_t i, size_t k)
{
    ukernel_prefetch q;
    for (int s = 0; s < 2; ++s) {
        const size_t lo = pf->lines[s] * i / k, hi = pf->lines[s] * (i + 1) / k;
        q.at[s] = hi > lo ? pf->at[s] + lo * UKERNEL_CACHE_LINE : NULL; /* no offset on NULL */
        q.lines[s] = hi - lo;
    }
    q.l2 = pf->l2;
    return q;
}

/* Asks for parts i0 .. i1 - 1 of k of pf (into L1): a loop of k steps
 * calls it for the steps it has done, so each line is asked for once. */
static inline void ukernel_prefetch_steps(const ukernel_prefetch *pf, size_t i0, size_t i1,
                                          size_t k)
{
    for (int s = 0; s < 2; ++s) {
        if (pf->lines[s] == 0) continue;
        const size_t lo = pf->lines[s] * i0 / k, hi = pf->lines[s] * i1 / k;
        for (size_t l = lo; l < hi; ++l)
            ukernel_prefetch_at(pf, pf->at[s] + l * UKERNEL_CACHE_LINE);
    }
}

/* pf, or no lines when NULL: a kernel's local copy, so the loop below keeps
 * the pointers and counts in registers. */
static inline ukernel_prefetch ukernel_prefetch_or_none(const ukernel_prefetch *pf)
{
    return pf ? *pf : UKERNEL_PREFETCH_NONE;
}

/* The kernels' way to ask for pf while they compute (grpconv, grpwtm): line s
 * of each stream at step s of their loop ... */
static inline void ukernel_prefetch_line(const ukernel_prefetch *pf, size_t s)
{
    for (int i = 0; i < 2; ++i)
        if (s < pf->lines[i]) ukernel_prefetch_at(pf, pf->at[i] + s * UKERNEL_CACHE_LINE);
}

/* ... and the lines from s on after a loop of s steps. */
static inline void ukernel_prefetch_from(const ukernel_prefetch *pf, size_t s)
{
    for (int i = 0; i < 2; ++i)
        for (size_t l = s; l < pf->lines[i]; ++l)
            ukernel_prefetch_at(pf, pf->at[i] + l * UKERNEL_CACHE_LINE);
}

/* The lines step i of k asks for, counted without dividing: rem starts at 0
 * and the steps come in order; the counts add up to lines * (i + 1) / k after
 * step i, as ukernel_prefetch_steps' parts do. */
static inline size_t ukernel_walk_count(size_t lines, size_t k, size_t *rem)
{
    size_t n = 0;
    for (*rem += lines; *rem >= k; *rem -= k)
        ++n;
    return n;
}

/* A loop's position in ukernel_prefetch_steps' parts, for loops that ask
 * for them one step at a time and in order; start zeroed. */
typedef struct ukernel_prefetch_walk {
    size_t line[2], rem[2];
} ukernel_prefetch_walk;

/* Asks for the next of k steps of pf: the lines of ukernel_prefetch_steps(pf,
 * i, i + 1, k) at step i, without its two divisions per stream (per packed
 * row, they were ~4% of dw_3x3_s2's weights pass). */
static inline void ukernel_prefetch_next(const ukernel_prefetch *pf, size_t k,
                                         ukernel_prefetch_walk *w)
{
    for (int s = 0; s < 2; ++s)
        for (size_t n = ukernel_walk_count(pf->lines[s], k, &w->rem[s]); n > 0; --n)
            ukernel_prefetch_at(pf, pf->at[s] + w->line[s]++ * UKERNEL_CACHE_LINE);
}

#endif /* ACLCONV_UKERNEL_PREFETCH_H_ */
