#include "common/soc.h"

#include <stdlib.h>
#include <string.h>

#include "common/common.h"

static const struct {
    soc_id id;
    const char *name;
} k_socs[] = {
    {SOC_ASCEND910B, "Ascend910B"},
    {SOC_ASCEND910_93, "Ascend910_93"},
    {SOC_ASCEND910, "Ascend910"},
    {SOC_ASCEND310P, "Ascend310P"},
};

soc_id soc_current(void)
{
    const char *env = getenv("ACLCONV_SOC");
    if (env != NULL)
        for (size_t i = 0; i < ACLCONV_ARRAY_SIZE(k_socs); ++i)
            if (strcmp(env, k_socs[i].name) == 0) return k_socs[i].id;
    return SOC_ASCEND910B;
}

const char *soc_name(soc_id soc)
{
    for (size_t i = 0; i < ACLCONV_ARRAY_SIZE(k_socs); ++i)
        if (k_socs[i].id == soc) return k_socs[i].name;
    return "Ascend910B";
}

ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void) { return soc_name(soc_current()); }
