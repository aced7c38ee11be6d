/* Compiled alone as C11 and as C++ by the header tests (-Werror). */
#include "acl/acl.h"
#include "aclconv/aclconv.h"
#include "aclnnop/aclnn_convolution_backward.h"

#ifdef __cplusplus
/* CANN programs spell the enum values qualified and store the destroy
 * functions as unique_ptr deleters of these exact types. */
static aclDataType qualified_dtype = aclDataType::ACL_FLOAT;
static aclFormat qualified_format = aclFormat::ACL_FORMAT_NCHW;
static aclnnStatus (*tensor_deleter)(const aclTensor *) = aclDestroyTensor;
static aclnnStatus (*int_array_deleter)(const aclIntArray *) = aclDestroyIntArray;
static aclnnStatus (*bool_array_deleter)(const aclBoolArray *) = aclDestroyBoolArray;
static aclError (*free_fn)(void *) = aclrtFree;
int header_test_use(void);
int header_test_use(void)
{
    return (int)qualified_dtype + (int)qualified_format + (tensor_deleter != 0) +
           (int_array_deleter != 0) + (bool_array_deleter != 0) + (free_fn != 0) + OK;
}
#else
int header_test_use(void);
int header_test_use(void) { return printf("%d", ACL_SUCCESS + ACLNN_ERR_PARAM_INVALID); }
#endif
