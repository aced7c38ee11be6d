/* The layout of the aclnn objects (opaque to callers). */
#ifndef ACLCONV_OBJECTS_H_
#define ACLCONV_OBJECTS_H_

#include "common/common.h"

struct aclTensor {
    uint64_t ndim;
    int64_t view[ACLCONV_MAX_DIMS];
    int64_t stride[ACLCONV_MAX_DIMS]; /* elements */
    int64_t offset;                   /* elements */
    uint64_t storage_ndim;
    int64_t storage[ACLCONV_MAX_DIMS];
    aclDataType dtype;
    aclFormat format;
    void *data;
};

struct aclIntArray {
    uint64_t size;
    int64_t v[];
};

struct aclFloatArray {
    uint64_t size;
    float v[];
};

struct aclBoolArray {
    uint64_t size;
    bool v[];
};

struct aclScalar {
    aclDataType dtype;
    unsigned char value[16]; /* widest scalar: COMPLEX128 */
};

struct aclTensorList {
    uint64_t size;
    aclTensor *v[];
};

struct aclScalarList {
    uint64_t size;
    aclScalar *v[];
};

/* Number of elements of the view; false if it overflows int64. */
bool tensor_numel(const aclTensor *t, int64_t *numel);

#endif /* ACLCONV_OBJECTS_H_ */
