/*
 * aclnnConvolutionBackward, 2D: gradOutput and input [2, 2, 7, 7], weight
 * [2, 2, 1, 1], stride 1, no padding, cubeMathType 1 (HF32), all-ones data.
 * Prints gradInput = 2.0 (196 values), gradWeight = 98.0 (4), gradBias = 98.0 (2).
 */
#include "example_util.h"

int main(void)
{
    example_tensor t[6] = {
        {.shape = {2, 2, 7, 7}, .ndim = 4}, /* gradOutput */
        {.shape = {2, 2, 7, 7}, .ndim = 4}, /* input */
        {.shape = {2, 2, 1, 1}, .ndim = 4}, /* weight */
        {.shape = {2, 2, 7, 7}, .ndim = 4}, /* gradInput */
        {.shape = {2, 2, 1, 1}, .ndim = 4}, /* gradWeight */
        {.shape = {2}, .ndim = 1},          /* gradBias */
    };
    example_attrs a = {.stride = {1, 1}, .padding = {0, 0}, .dilation = {1, 1},
                       .output_padding = {0, 0}, .spatial = 2, .groups = 1,
                       .cube_math_type = 1};
    return example_main(&a, t, ACL_FORMAT_NCHW);
}
