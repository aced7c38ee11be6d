/*
 * Tests of the aclnn objects (src/api/objects.c): create, query, destroy and
 * the validation of every create argument.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "test_check.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "api/objects.h"
#include "common/alloc.h"

/* A create that must fail: NULL, and a message naming fn. */
#define CHECK_REFUSED(obj, fn)                                                                     \
    do {                                                                                           \
        CHECK((obj) == NULL, "%s accepted bad arguments", fn);                                     \
        CHECK(strstr(aclGetRecentErrMsg(), fn) != NULL, "message \"%s\" does not name %s",         \
              aclGetRecentErrMsg(), fn);                                                           \
    } while (0)

static float g_data[4096];

static int dims_equal(const int64_t *a, const int64_t *b, uint64_t n)
{
    for (uint64_t i = 0; i < n; ++i)
        if (a[i] != b[i]) return 0;
    return 1;
}

static void test_tensor_create_and_query(void)
{
    const int64_t shape[4] = {2, 3, 4, 5};
    const int64_t storage[1] = {120};
    aclTensor *t =
        aclCreateTensor(shape, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_NCHW, storage, 1, g_data);
    CHECK(t != NULL, "create: %s", aclGetRecentErrMsg());
    if (t == NULL) return;

    int64_t *dims = NULL;
    uint64_t n = 0;
    CHECK_ST(aclGetViewShape(t, &dims, &n), ACLNN_SUCCESS);
    CHECK(n == 4 && dims != NULL && dims_equal(dims, shape, 4), "view shape");
    free(dims);
    CHECK_ST(aclGetStorageShape(t, &dims, &n), ACLNN_SUCCESS);
    CHECK(n == 1 && dims[0] == 120, "storage shape");
    free(dims);
    CHECK_ST(aclGetViewStrides(t, &dims, &n), ACLNN_SUCCESS);
    const int64_t contiguous[4] = {60, 20, 5, 1};
    CHECK(n == 4 && dims_equal(dims, contiguous, 4), "default strides %lld %lld %lld %lld",
          (long long)dims[0], (long long)dims[1], (long long)dims[2], (long long)dims[3]);
    free(dims);

    int64_t off = -1;
    aclFormat fmt = ACL_FORMAT_UNDEFINED;
    aclDataType dt = ACL_DT_UNDEFINED;
    void *addr = NULL;
    CHECK_ST(aclGetViewOffset(t, &off), ACLNN_SUCCESS);
    CHECK(off == 0, "offset %lld", (long long)off);
    CHECK_ST(aclGetFormat(t, &fmt), ACLNN_SUCCESS);
    CHECK(fmt == ACL_FORMAT_NCHW, "format %d", fmt);
    CHECK_ST(aclGetDataType(t, &dt), ACLNN_SUCCESS);
    CHECK(dt == ACL_FLOAT, "dtype %d", dt);
    CHECK_ST(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
    CHECK(addr == g_data, "address");
    CHECK_ST(aclSetRawTensorAddr(t, g_data + 8), ACLNN_SUCCESS);
    CHECK_ST(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
    CHECK(addr == g_data + 8, "set address");
    int64_t numel = 0;
    CHECK(tensor_numel(t, &numel) && numel == 120, "numel %lld", (long long)numel);

    /* NULL arguments of the queries */
    CHECK_ST(aclGetViewShape(NULL, &dims, &n), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetViewShape(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetViewShape(t, &dims, NULL), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetStorageShape(NULL, &dims, &n), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetViewStrides(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetViewOffset(NULL, &off), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetViewOffset(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetFormat(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetDataType(NULL, &dt), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetRawTensorAddr(t, NULL), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclSetRawTensorAddr(NULL, g_data), ACLNN_ERR_PARAM_NULLPTR);
    CHECK(strstr(aclGetRecentErrMsg(), "aclSetRawTensorAddr") != NULL, "message: %s",
          aclGetRecentErrMsg());

    /* re-initialize in place */
    const int64_t shape2[2] = {6, 7};
    const int64_t strides2[2] = {1, 6};
    CHECK_ST(
        aclInitTensor(t, shape2, 2, ACL_FLOAT16, strides2, 3, ACL_FORMAT_ND, shape2, 2, g_data),
        ACLNN_SUCCESS);
    CHECK_ST(aclGetViewStrides(t, &dims, &n), ACLNN_SUCCESS);
    CHECK(n == 2 && dims_equal(dims, strides2, 2), "explicit strides kept");
    free(dims);
    CHECK_ST(aclGetViewOffset(t, &off), ACLNN_SUCCESS);
    CHECK(off == 3, "offset %lld", (long long)off);
    CHECK_ST(aclGetDataType(t, &dt), ACLNN_SUCCESS);
    CHECK(dt == ACL_FLOAT16, "dtype after init %d", dt);
    /* a refused re-init leaves the tensor as it was */
    const int64_t bad[2] = {6, -7};
    CHECK_ST(aclInitTensor(t, bad, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_data),
             ACLNN_ERR_PARAM_INVALID);
    CHECK_ST(aclGetDataType(t, &dt), ACLNN_SUCCESS);
    CHECK(dt == ACL_FLOAT16, "refused init changed the tensor");
    CHECK_ST(aclInitTensor(NULL, shape2, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_data),
             ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclDestroyTensor(t), ACLNN_SUCCESS);
}

static void test_tensor_validation(void)
{
    const int64_t shape[9] = {1, 2, 3, 1, 1, 1, 1, 1, 1};
    const char *fn = "aclCreateTensor";

    /* up to 8 dims */
    aclTensor *t = aclCreateTensor(shape, 8, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 8, g_data);
    CHECK(t != NULL, "8 dims refused: %s", aclGetRecentErrMsg());
    aclDestroyTensor(t);
    t = aclCreateTensor(shape, 9, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, g_data);
    CHECK_REFUSED(t, fn);
    t = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 9, g_data);
    CHECK_REFUSED(t, fn);

    /* negative dims, strides, offsets, storage dims */
    const int64_t neg[3] = {2, -1, 3};
    t = aclCreateTensor(neg, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_data);
    CHECK_REFUSED(t, fn);
    CHECK(strstr(aclGetRecentErrMsg(), "-1") != NULL, "message lacks the value: %s",
          aclGetRecentErrMsg());
    const int64_t neg_stride[3] = {6, -3, 1};
    t = aclCreateTensor(shape, 3, ACL_FLOAT, neg_stride, 0, ACL_FORMAT_ND, NULL, 0, g_data);
    CHECK_REFUSED(t, fn);
    t = aclCreateTensor(shape, 3, ACL_FLOAT, NULL, -1, ACL_FORMAT_ND, NULL, 0, g_data);
    CHECK_REFUSED(t, fn);
    t = aclCreateTensor(shape, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, neg, 3, g_data);
    CHECK_REFUSED(t, fn);

    /* NULL arrays with a non-zero size */
    t = aclCreateTensor(NULL, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_data);
    CHECK_REFUSED(t, fn);
    t = aclCreateTensor(shape, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 2, g_data);
    CHECK_REFUSED(t, fn);

    /* unknown dtypes */
    static const int bad_dtypes[] = {-1, 5, 14, 15, 18, 26, 28, 31, 42, 1000, -2};
    for (size_t i = 0; i < sizeof bad_dtypes / sizeof bad_dtypes[0]; ++i) {
        t = aclCreateTensor(shape, 3, (aclDataType)bad_dtypes[i], NULL, 0, ACL_FORMAT_ND, NULL, 0,
                            g_data);
        CHECK_REFUSED(t, fn);
        aclDestroyTensor(t);
    }
    static const aclDataType good_dtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8,
                                              ACL_INT64, ACL_DOUBLE,  ACL_BOOL, ACL_COMPLEX64};
    for (size_t i = 0; i < sizeof good_dtypes / sizeof good_dtypes[0]; ++i) {
        t = aclCreateTensor(shape, 3, good_dtypes[i], NULL, 0, ACL_FORMAT_ND, NULL, 0, g_data);
        CHECK(t != NULL, "dtype %d refused: %s", good_dtypes[i], aclGetRecentErrMsg());
        aclDestroyTensor(t);
    }

    /* data may be NULL only for an empty view */
    t = aclCreateTensor(shape, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL);
    CHECK_REFUSED(t, fn);
    const int64_t empty[3] = {2, 0, 3};
    t = aclCreateTensor(empty, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL);
    CHECK(t != NULL, "empty view with NULL data refused: %s", aclGetRecentErrMsg());
    int64_t *dims = NULL;
    uint64_t n = 0;
    if (t != NULL) {
        CHECK_ST(aclGetViewStrides(t, &dims, &n), ACLNN_SUCCESS);
        CHECK(n == 3 && dims[0] == 3 && dims[1] == 3 && dims[2] == 1, "strides of empty view");
        free(dims);
    }
    aclDestroyTensor(t);

    /* a 0-dim tensor is one element; its shape query returns 0 dims */
    t = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_data);
    CHECK(t != NULL, "0-dim tensor refused: %s", aclGetRecentErrMsg());
    if (t != NULL) {
        CHECK_ST(aclGetViewShape(t, &dims, &n), ACLNN_SUCCESS);
        CHECK(n == 0 && dims != NULL, "0-dim shape");
        free(dims);
    }
    aclDestroyTensor(t);

    /* an element count that overflows int64 */
    const int64_t huge[3] = {INT64_MAX / 2, 3, 1};
    t = aclCreateTensor(huge, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_data);
    CHECK_REFUSED(t, fn);

    /* allocation failure */
    aclconvTestFailAllocAt(1);
    t = aclCreateTensor(shape, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_data);
    aclconvTestFailAllocAt(0);
    CHECK_REFUSED(t, fn);
}

static void test_scalars(void)
{
    double d = 2.5;
    aclScalar *s = aclCreateScalar(&d, ACL_DOUBLE);
    CHECK(s != NULL, "double scalar: %s", aclGetRecentErrMsg());
    d = 7.0; /* the value was copied */
    if (s != NULL) {
        double got;
        memcpy(&got, s->value, sizeof got);
        CHECK(got == 2.5 && s->dtype == ACL_DOUBLE, "scalar value %g", got);
    }
    aclDestroyScalar(s);
    unsigned char c128[16];
    for (int i = 0; i < 16; ++i)
        c128[i] = (unsigned char)(i + 1);
    s = aclCreateScalar(c128, ACL_COMPLEX128);
    CHECK(s != NULL && memcmp(s->value, c128, 16) == 0, "complex128 scalar");
    aclDestroyScalar(s);
    int8_t i8 = -3;
    s = aclCreateScalar(&i8, ACL_INT8);
    CHECK(s != NULL && (int8_t)s->value[0] == -3, "int8 scalar");
    aclDestroyScalar(s);

    CHECK_REFUSED(aclCreateScalar(NULL, ACL_FLOAT), "aclCreateScalar");
    CHECK_REFUSED(aclCreateScalar(&d, (aclDataType)5), "aclCreateScalar");
    CHECK_REFUSED(aclCreateScalar(&d, ACL_DT_UNDEFINED), "aclCreateScalar");
    CHECK_REFUSED(aclCreateScalar(&d, ACL_STRING), "aclCreateScalar");
    aclconvTestFailAllocAt(1);
    s = aclCreateScalar(&d, ACL_DOUBLE);
    aclconvTestFailAllocAt(0);
    CHECK_REFUSED(s, "aclCreateScalar");
}

static void test_arrays(void)
{
    const int64_t iv[3] = {1, -2, 3};
    aclIntArray *ia = aclCreateIntArray(iv, 3);
    uint64_t n = 0;
    CHECK(ia != NULL, "int array: %s", aclGetRecentErrMsg());
    if (ia != NULL) {
        CHECK_ST(aclGetIntArraySize(ia, &n), ACLNN_SUCCESS);
        CHECK(n == 3 && ia->v[0] == 1 && ia->v[1] == -2 && ia->v[2] == 3, "int array content");
    }
    CHECK_ST(aclGetIntArraySize(NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetIntArraySize(ia, NULL), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclDestroyIntArray(ia), ACLNN_SUCCESS);

    const float fv[2] = {0.5f, -1.5f};
    aclFloatArray *fa = aclCreateFloatArray(fv, 2);
    CHECK(fa != NULL && fa->v[0] == 0.5f && fa->v[1] == -1.5f, "float array");
    CHECK_ST(aclGetFloatArraySize(fa, &n), ACLNN_SUCCESS);
    CHECK(n == 2, "float array size %llu", (unsigned long long)n);
    CHECK_ST(aclDestroyFloatArray(fa), ACLNN_SUCCESS);

    const bool bv[3] = {true, false, true};
    aclBoolArray *ba = aclCreateBoolArray(bv, 3);
    CHECK(ba != NULL && ba->v[0] && !ba->v[1] && ba->v[2], "bool array");
    CHECK_ST(aclGetBoolArraySize(ba, &n), ACLNN_SUCCESS);
    CHECK(n == 3, "bool array size");
    CHECK_ST(aclDestroyBoolArray(ba), ACLNN_SUCCESS);

    /* empty arrays may have NULL values; non-empty ones may not */
    ia = aclCreateIntArray(NULL, 0);
    CHECK(ia != NULL, "empty int array refused: %s", aclGetRecentErrMsg());
    CHECK_ST(aclGetIntArraySize(ia, &n), ACLNN_SUCCESS);
    CHECK(n == 0, "empty size");
    aclDestroyIntArray(ia);
    CHECK_REFUSED(aclCreateIntArray(NULL, 2), "aclCreateIntArray");
    CHECK_REFUSED(aclCreateFloatArray(NULL, 1), "aclCreateFloatArray");
    CHECK_REFUSED(aclCreateBoolArray(NULL, 1), "aclCreateBoolArray");
    /* a size whose byte count overflows is refused before anything is read */
    CHECK_REFUSED(aclCreateIntArray(iv, UINT64_MAX / 4), "aclCreateIntArray");
    CHECK_REFUSED(aclCreateIntArray(iv, UINT64_MAX), "aclCreateIntArray");
    aclconvTestFailAllocAt(1);
    ia = aclCreateIntArray(iv, 3);
    aclconvTestFailAllocAt(0);
    CHECK_REFUSED(ia, "aclCreateIntArray");
}

static void test_lists(void)
{
    const int64_t shape[2] = {2, 2};
    aclTensor *ts[3];
    for (int i = 0; i < 3; ++i)
        ts[i] = aclCreateTensor(shape, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_data);
    aclTensorList *tl = aclCreateTensorList((const aclTensor *const *)ts, 3);
    uint64_t n = 0;
    CHECK(tl != NULL, "tensor list: %s", aclGetRecentErrMsg());
    CHECK_ST(aclGetTensorListSize(tl, &n), ACLNN_SUCCESS);
    CHECK(n == 3 && tl->v[1] == ts[1], "tensor list content");
    /* the list owns the tensors: destroying it releases them (LeakSanitizer) */
    CHECK_ST(aclDestroyTensorList(tl), ACLNN_SUCCESS);

    float one = 1.0f;
    aclScalar *ss[2] = {aclCreateScalar(&one, ACL_FLOAT), aclCreateScalar(&one, ACL_FLOAT)};
    aclScalarList *sl = aclCreateScalarList((const aclScalar *const *)ss, 2);
    CHECK(sl != NULL, "scalar list");
    CHECK_ST(aclGetScalarListSize(sl, &n), ACLNN_SUCCESS);
    CHECK(n == 2, "scalar list size");
    CHECK_ST(aclDestroyScalarList(sl), ACLNN_SUCCESS);
    CHECK_ST(aclGetTensorListSize(NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_ST(aclGetScalarListSize(NULL, &n), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_REFUSED(aclCreateTensorList(NULL, 1), "aclCreateTensorList");
    CHECK_REFUSED(aclCreateScalarList(NULL, 1), "aclCreateScalarList");

    /* a list may hold NULL entries; destroying it skips them */
    aclTensor *holes[2] = {NULL, NULL};
    tl = aclCreateTensorList((const aclTensor *const *)holes, 2);
    CHECK(tl != NULL, "list with NULL entries");
    CHECK_ST(aclDestroyTensorList(tl), ACLNN_SUCCESS);
}

static void test_destroy_null(void)
{
    CHECK_ST(aclDestroyTensor(NULL), ACLNN_SUCCESS);
    CHECK_ST(aclDestroyScalar(NULL), ACLNN_SUCCESS);
    CHECK_ST(aclDestroyIntArray(NULL), ACLNN_SUCCESS);
    CHECK_ST(aclDestroyFloatArray(NULL), ACLNN_SUCCESS);
    CHECK_ST(aclDestroyBoolArray(NULL), ACLNN_SUCCESS);
    CHECK_ST(aclDestroyTensorList(NULL), ACLNN_SUCCESS);
    CHECK_ST(aclDestroyScalarList(NULL), ACLNN_SUCCESS);
}

static void test_dtype_sizes(void)
{
    CHECK(aclDataTypeSize(ACL_FLOAT) == 4, "float");
    CHECK(aclDataTypeSize(ACL_FLOAT16) == 2, "float16");
    CHECK(aclDataTypeSize(ACL_BF16) == 2, "bf16");
    CHECK(aclDataTypeSize(ACL_DOUBLE) == 8, "double");
    CHECK(aclDataTypeSize(ACL_INT8) == 1, "int8");
    CHECK(aclDataTypeSize(ACL_COMPLEX128) == 16, "complex128");
    CHECK(aclDataTypeSize((aclDataType)5) == 0, "unknown");
    CHECK(aclDataTypeSize(ACL_DT_UNDEFINED) == 0, "undefined");
}

int main(void)
{
    test_tensor_create_and_query();
    test_tensor_validation();
    test_scalars();
    test_arrays();
    test_lists();
    test_destroy_null();
    test_dtype_sizes();
    /* the lifecycle functions of aclnn itself */
    CHECK_ST(aclnnInit(NULL), ACLNN_SUCCESS);
    CHECK_ST(aclnnFinalize(), ACLNN_SUCCESS);
    if (g_test_failures) {
        printf("test_objects: %d check(s) failed\n", g_test_failures);
        return 1;
    }
    printf("test_objects: all checks passed\n");
    return 0;
}
