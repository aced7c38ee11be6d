/* The emulated Ascend SoC. Its checker rules differ (dtype lists, 3D support,
 * cubeMathType); ACLCONV_SOC selects it, default Ascend910B. */
#ifndef ACLCONV_SOC_H_
#define ACLCONV_SOC_H_

#include <stdbool.h>

typedef enum {
    SOC_ASCEND910B,  /* DAV_2201: FP32/FP16/BF16, 1D-3D, fp32 + HF32 cube */
    SOC_ASCEND910_93, /* DAV_2201, same rules as 910B */
    SOC_ASCEND910,   /* DAV_1001: FP32/FP16, 1D/2D, no fp32 cube */
    SOC_ASCEND310P   /* DAV_2002: FP32/FP16, 1D/2D, no fp32 cube */
} soc_id;

/* Read from ACLCONV_SOC on every call, so a test may switch it between calls.
 * An unknown name means Ascend910B. */
soc_id soc_current(void);
const char *soc_name(soc_id soc);

/* DAV_2201 (910B, 910_93): BF16, 3D convolution, fp32 and HF32 cube. */
static inline bool soc_is_dav2201(soc_id soc)
{
    return soc == SOC_ASCEND910B || soc == SOC_ASCEND910_93;
}

#endif /* ACLCONV_SOC_H_ */
