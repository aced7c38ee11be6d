/* Per-slot scratch in the workspace: each compute thread (slot) has its own
 * buffers, laid out one slot after another. */
#ifndef ACLCONV_ENGINE_CONV_SLOTS_H_
#define ACLCONV_ENGINE_CONV_SLOTS_H_

#include <stdint.h>

/* A gap of floats after each slot's buffer, so that two threads' buffers
 * are never within a few KB of each other. Side by side, small buffers
 * that one thread writes while the other's streams run next to them cost
 * both threads dearly on Zen 5 (the cores' prefetchers fetch lines of the
 * neighbour's buffer, which its stores must then take back): r50_c4_1x1's
 * HF32 weights pass, whose 9.5 KB per-slot copy of x was the only change,
 * 12.6-13.0 -> 10.5-11.1 ms with gaps of 8 KB (4 KB: half of that gain);
 * dw_3x3 -6 to -9% (docs/performance.md, "Session 37"). */
#define CONV_SLOT_GUARD_FLOATS 2048

/* The pitch of per-slot buffers of `floats` floats: whole 64-byte lines
 * plus the guard. */
static inline int64_t conv_slot_pitch(int64_t floats)
{
    return (floats + 15) / 16 * 16 + CONV_SLOT_GUARD_FLOATS;
}

#endif /* ACLCONV_ENGINE_CONV_SLOTS_H_ */
