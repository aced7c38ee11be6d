#include "engine/conv_dw.h"
#include "engine/conv_fast.h"
#include "engine/conv_grouped.h"
#include "engine/conv_impl.h"
#include "engine/conv_patch.h"

/* Fastest first; the direct implementation applies to every problem. */
const conv_impl *const conv_impl_list[] = {
    &conv_impl_dw,      /* declines everything that is not depthwise */
    &conv_impl_grouped, /* few channels per group; declines the rest */
    /* 1x1 passes over patches: what fast declines by its limits, and D's
     * gradInput where most of fast's multiply-adds would read padding */
    &conv_impl_patch,
    &conv_impl_fast,
    &conv_impl_direct,
    NULL,
};
