/*
 * aclnnConvolutionBackward, 1D (NCL): input [4, 2, 9], weight [2, 2, 3],
 * gradOutput [4, 2, 3], stride 3 (the windows tile the input exactly), no
 * padding, cubeMathType 0, all-ones data.
 * Prints gradInput = 2.0 (72 values), gradWeight = 12.0 (12), gradBias = 12.0 (2).
 */
#include "example_util.h"

int main(void)
{
    example_tensor t[6] = {
        {.shape = {4, 2, 3}, .ndim = 3}, /* gradOutput */
        {.shape = {4, 2, 9}, .ndim = 3}, /* input */
        {.shape = {2, 2, 3}, .ndim = 3}, /* weight */
        {.shape = {4, 2, 9}, .ndim = 3}, /* gradInput */
        {.shape = {2, 2, 3}, .ndim = 3}, /* gradWeight */
        {.shape = {2}, .ndim = 1},       /* gradBias */
    };
    example_attrs a = {.stride = {3}, .padding = {0}, .dilation = {1}, .output_padding = {0},
                       .spatial = 1, .groups = 1, .cube_math_type = 0};
    return example_main(&a, t, ACL_FORMAT_NCL);
}
