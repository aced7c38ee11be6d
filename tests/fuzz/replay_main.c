/*
 * Replay driver: the fuzz harness as a plain program, without libFuzzer.
 * Runs LLVMFuzzerTestOneInput once per file given; a directory argument runs
 * every regular file in it (sorted, for stable output). A failing input
 * aborts (the harness's oracles), so the exit status says it all.
 */
#define _DEFAULT_SOURCE /* DT_REG */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "acl/acl.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long g_files;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf == NULL || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        fclose(f);
        free(buf);
        return 1;
    }
    fclose(f);
    if (getenv("FUZZ_REPLAY_VERBOSE")) fprintf(stderr, "replay: %s (%ld bytes)\n", path, n);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    ++g_files;
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "replay: %s does not exist\n", path);
        return 1;
    }
    if (!S_ISDIR(sb.st_mode)) return run_file(path);
    DIR *d = opendir(path);
    if (d == NULL) return 1;
    char **names = NULL;
    size_t count = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
            if (names == NULL) abort();
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[count] = malloc(len);
        snprintf(names[count++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (count > 1) qsort(names, count, sizeof *names, cmp_names);
    int rc = 0;
    for (size_t i = 0; i < count; ++i) {
        rc |= run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    int rc = 0;
    for (int i = 1; i < argc; ++i) rc |= run_path(argv[i]);
    printf("replayed %ld inputs\n", g_files);
    aclFinalize();
    return rc;
}
