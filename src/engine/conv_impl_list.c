#include "engine/conv_dw.h"
#include "engine/conv_fast.h"
#include "engine/conv_grouped.h"
#include "engine/conv_impl.h"
#include "engine/conv_patch.h"

/* Fastest first; the direct implementation applies to every problem. */
const conv_impl *const conv_impl_list[] = {
    &conv_impl_dw,      /* declines everything that is not depthwise */
    &conv_impl_grouped, /* few channels per group; declines the rest */
    &conv_impl_fast,
    &conv_impl_patch, /* what fast declines by its limits: 1x1 passes over patches */
    &conv_impl_direct,
    NULL,
};
