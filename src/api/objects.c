/* Create, destroy and query functions of the aclnn objects. */
#include "api/objects.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/checked.h"
#include "common/dtype.h"
#include "common/log.h"

bool tensor_numel(const aclTensor *t, int64_t *numel)
{
    return checked_numel(t->view, t->ndim, numel);
}

static aclnnStatus tensor_init(aclTensor *t, const int64_t *viewDims, uint64_t viewDimsNum,
                               aclDataType dataType, const int64_t *stride, int64_t offset,
                               aclFormat format, const int64_t *storageDims,
                               uint64_t storageDimsNum, void *data)
{
    if (viewDimsNum > ACLCONV_MAX_DIMS || storageDimsNum > ACLCONV_MAX_DIMS) {
        aclconv_set_error("aclCreateTensor: viewDimsNum %llu / storageDimsNum %llu exceeds %d",
                          (unsigned long long)viewDimsNum, (unsigned long long)storageDimsNum,
                          ACLCONV_MAX_DIMS);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if ((viewDimsNum > 0 && viewDims == NULL) || (storageDimsNum > 0 && storageDims == NULL)) {
        aclconv_set_error("aclCreateTensor: viewDims or storageDims is NULL with a non-zero size");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    if (!dtype_is_known(dataType) || dataType == ACL_DT_UNDEFINED) {
        aclconv_set_error("aclCreateTensor: unknown dataType %d", (int)dataType);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (offset < 0) {
        aclconv_set_error("aclCreateTensor: offset %lld is negative", (long long)offset);
        return ACLNN_ERR_PARAM_INVALID;
    }
    for (uint64_t i = 0; i < viewDimsNum; ++i) {
        if (viewDims[i] < 0) {
            aclconv_set_error("aclCreateTensor: viewDims[%llu] = %lld is negative",
                              (unsigned long long)i, (long long)viewDims[i]);
            return ACLNN_ERR_PARAM_INVALID;
        }
        if (stride != NULL && stride[i] < 0) {
            aclconv_set_error("aclCreateTensor: stride[%llu] = %lld is negative",
                              (unsigned long long)i, (long long)stride[i]);
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    for (uint64_t i = 0; i < storageDimsNum; ++i) {
        if (storageDims[i] < 0) {
            aclconv_set_error("aclCreateTensor: storageDims[%llu] = %lld is negative",
                              (unsigned long long)i, (long long)storageDims[i]);
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    int64_t numel;
    if (!checked_numel(viewDims, viewDimsNum, &numel)) {
        aclconv_set_error("aclCreateTensor: the element count of the view overflows");
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (data == NULL && numel > 0) {
        aclconv_set_error("aclCreateTensor: tensorData is NULL for a view of %lld elements",
                          (long long)numel);
        return ACLNN_ERR_PARAM_NULLPTR;
    }

    memset(t, 0, sizeof *t);
    t->ndim = viewDimsNum;
    t->storage_ndim = storageDimsNum;
    int64_t contiguous = 1;
    for (uint64_t i = viewDimsNum; i-- > 0;) {
        t->view[i] = viewDims[i];
        if (stride != NULL) {
            t->stride[i] = stride[i];
        } else {
            t->stride[i] = contiguous;
            /* saturate: a stride is never needed once the view is empty or huge */
            if (!checked_mul_i64(contiguous, ACLCONV_MAX(viewDims[i], 1), &contiguous))
                contiguous = INT64_MAX;
        }
    }
    for (uint64_t i = 0; i < storageDimsNum; ++i) t->storage[i] = storageDims[i];
    t->offset = offset;
    t->dtype = dataType;
    t->format = format;
    t->data = data;
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum,
                                               aclDataType dataType, const int64_t *stride,
                                               int64_t offset, aclFormat format,
                                               const int64_t *storageDims,
                                               uint64_t storageDimsNum, void *tensorData)
{
    aclTensor tmp;
    if (tensor_init(&tmp, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
                    storageDimsNum, tensorData) != ACLNN_SUCCESS)
        return NULL;
    aclTensor *t = aclconv_malloc(sizeof *t);
    if (t == NULL) {
        aclconv_set_error("aclCreateTensor: out of memory");
        return NULL;
    }
    *t = tmp;
    return t;
}

ACL_FUNC_VISIBILITY aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims,
                                              uint64_t viewDimsNum, aclDataType dataType,
                                              const int64_t *stride, int64_t offset,
                                              aclFormat format, const int64_t *storageDims,
                                              uint64_t storageDimsNum, void *tensorDataAddr)
{
    if (tensor == NULL) {
        aclconv_set_error("aclInitTensor: tensor is NULL");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    aclTensor tmp;
    aclnnStatus st = tensor_init(&tmp, viewDims, viewDimsNum, dataType, stride, offset, format,
                                 storageDims, storageDimsNum, tensorDataAddr);
    if (st == ACLNN_SUCCESS) *tensor = tmp;
    return st;
}

ACL_FUNC_VISIBILITY aclScalar *aclCreateScalar(void *value, aclDataType dataType)
{
    size_t size = aclDataTypeSize(dataType);
    if (value == NULL) {
        aclconv_set_error("aclCreateScalar: value is NULL");
        return NULL;
    }
    if (size == 0 || size > sizeof(((aclScalar *)0)->value)) {
        aclconv_set_error("aclCreateScalar: unsupported dataType %d", (int)dataType);
        return NULL;
    }
    aclScalar *s = aclconv_calloc(1, sizeof *s);
    if (s == NULL) {
        aclconv_set_error("aclCreateScalar: out of memory");
        return NULL;
    }
    s->dtype = dataType;
    memcpy(s->value, value, size);
    return s;
}

/* Allocates header + size elements of elem bytes and copies them. */
static void *array_create(const char *fn, const void *value, uint64_t size, size_t header,
                          size_t elem)
{
    size_t bytes;
    if (value == NULL && size > 0) {
        aclconv_set_error("%s: value is NULL with size %llu", fn, (unsigned long long)size);
        return NULL;
    }
    if (size > SIZE_MAX / elem || !checked_add_size(header, (size_t)size * elem, &bytes)) {
        aclconv_set_error("%s: size %llu is too large", fn, (unsigned long long)size);
        return NULL;
    }
    unsigned char *a = aclconv_malloc(bytes);
    if (a == NULL) {
        aclconv_set_error("%s: out of memory", fn);
        return NULL;
    }
    memcpy(a, &size, sizeof size); /* every array struct starts with uint64_t size */
    if (size > 0) memcpy(a + header, value, (size_t)size * elem);
    return a;
}

ACL_FUNC_VISIBILITY aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size)
{
    return array_create("aclCreateIntArray", value, size, offsetof(aclIntArray, v),
                        sizeof(int64_t));
}

ACL_FUNC_VISIBILITY aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size)
{
    return array_create("aclCreateFloatArray", value, size, offsetof(aclFloatArray, v),
                        sizeof(float));
}

ACL_FUNC_VISIBILITY aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size)
{
    return array_create("aclCreateBoolArray", value, size, offsetof(aclBoolArray, v),
                        sizeof(bool));
}

ACL_FUNC_VISIBILITY aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size)
{
    return array_create("aclCreateTensorList", value, size, offsetof(aclTensorList, v),
                        sizeof(aclTensor *));
}

ACL_FUNC_VISIBILITY aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size)
{
    return array_create("aclCreateScalarList", value, size, offsetof(aclScalarList, v),
                        sizeof(aclScalar *));
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor *tensor)
{
    aclconv_free((void *)tensor);
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar *scalar)
{
    aclconv_free((void *)scalar);
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray *array)
{
    aclconv_free((void *)array);
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyFloatArray(const aclFloatArray *array)
{
    aclconv_free((void *)array);
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray *array)
{
    aclconv_free((void *)array);
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensorList(const aclTensorList *array)
{
    if (array != NULL)
        for (uint64_t i = 0; i < array->size; ++i) aclDestroyTensor(array->v[i]);
    aclconv_free((void *)array);
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalarList(const aclScalarList *array)
{
    if (array != NULL)
        for (uint64_t i = 0; i < array->size; ++i) aclDestroyScalar(array->v[i]);
    aclconv_free((void *)array);
    return ACLNN_SUCCESS;
}

/* Copies n dims into a new array owned by the caller (released with free()). */
static aclnnStatus dims_out(const char *fn, const int64_t *src, uint64_t n, int64_t **out,
                            uint64_t *out_n)
{
    if (out == NULL || out_n == NULL) {
        aclconv_set_error("%s: an output pointer is NULL", fn);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    /* plain malloc: the caller releases it with free() */
    int64_t *a = malloc(n ? n * sizeof *a : 1);
    if (a == NULL) {
        aclconv_set_error("%s: out of memory", fn);
        return ACLNN_ERR_INNER_NULLPTR;
    }
    if (n) memcpy(a, src, n * sizeof *a);
    *out = a;
    *out_n = n;
    return ACLNN_SUCCESS;
}

#define REQUIRE_OBJ(fn, obj)                                                                       \
    do {                                                                                           \
        if ((obj) == NULL) {                                                                       \
            aclconv_set_error("%s: %s is NULL", fn, #obj);                                         \
            return ACLNN_ERR_PARAM_NULLPTR;                                                        \
        }                                                                                          \
    } while (0)

ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims,
                                                uint64_t *viewDimsNum)
{
    REQUIRE_OBJ("aclGetViewShape", tensor);
    return dims_out("aclGetViewShape", tensor->view, tensor->ndim, viewDims, viewDimsNum);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                                                   uint64_t *storageDimsNum)
{
    REQUIRE_OBJ("aclGetStorageShape", tensor);
    return dims_out("aclGetStorageShape", tensor->storage, tensor->storage_ndim, storageDims,
                    storageDimsNum);
}

ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
                                                  uint64_t *stridesNum)
{
    REQUIRE_OBJ("aclGetViewStrides", tensor);
    return dims_out("aclGetViewStrides", tensor->stride, tensor->ndim, stridesValue, stridesNum);
}

#define SCALAR_GETTER(fn, obj_type, obj, out_type, out, expr)                                      \
    ACL_FUNC_VISIBILITY aclnnStatus fn(const obj_type *obj, out_type *out)                         \
    {                                                                                              \
        REQUIRE_OBJ(#fn, obj);                                                                     \
        REQUIRE_OBJ(#fn, out);                                                                     \
        *out = (expr);                                                                             \
        return ACLNN_SUCCESS;                                                                      \
    }

SCALAR_GETTER(aclGetViewOffset, aclTensor, tensor, int64_t, offset, tensor->offset)
SCALAR_GETTER(aclGetFormat, aclTensor, tensor, aclFormat, format, tensor->format)
SCALAR_GETTER(aclGetDataType, aclTensor, tensor, aclDataType, dataType, tensor->dtype)
SCALAR_GETTER(aclGetRawTensorAddr, aclTensor, tensor, void *, addr, tensor->data)
SCALAR_GETTER(aclGetIntArraySize, aclIntArray, array, uint64_t, size, array->size)
SCALAR_GETTER(aclGetFloatArraySize, aclFloatArray, array, uint64_t, size, array->size)
SCALAR_GETTER(aclGetBoolArraySize, aclBoolArray, array, uint64_t, size, array->size)
SCALAR_GETTER(aclGetTensorListSize, aclTensorList, tensorList, uint64_t, size, tensorList->size)
SCALAR_GETTER(aclGetScalarListSize, aclScalarList, scalarList, uint64_t, size, scalarList->size)

ACL_FUNC_VISIBILITY aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr)
{
    REQUIRE_OBJ("aclSetRawTensorAddr", tensor);
    tensor->data = addr;
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath)
{
    (void)configPath;
    return ACLNN_SUCCESS;
}

ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void) { return ACLNN_SUCCESS; }
