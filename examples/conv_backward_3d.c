/*
 * aclnnConvolutionBackward, 3D (NCDHW): gradOutput and input [2, 2, 7, 7, 7],
 * weight [2, 2, 1, 1, 1], stride 1, no padding, cubeMathType 1, all-ones data.
 * Prints gradInput = 2.0 (1372 values), gradWeight = 686.0 (4), gradBias = 686.0 (2).
 */
#include "example_util.h"

int main(void)
{
    example_tensor t[6] = {
        {.shape = {2, 2, 7, 7, 7}, .ndim = 5}, /* gradOutput */
        {.shape = {2, 2, 7, 7, 7}, .ndim = 5}, /* input */
        {.shape = {2, 2, 1, 1, 1}, .ndim = 5}, /* weight */
        {.shape = {2, 2, 7, 7, 7}, .ndim = 5}, /* gradInput */
        {.shape = {2, 2, 1, 1, 1}, .ndim = 5}, /* gradWeight */
        {.shape = {2}, .ndim = 1},             /* gradBias */
    };
    example_attrs a = {.stride = {1, 1, 1}, .padding = {0, 0, 0}, .dilation = {1, 1, 1},
                       .output_padding = {0, 0, 0}, .spatial = 3, .groups = 1,
                       .cube_math_type = 1};
    return example_main(&a, t, ACL_FORMAT_NCDHW);
}
