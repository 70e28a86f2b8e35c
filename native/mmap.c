// omm_mmap: maps a whole file read-only into an external Buffer, unmapped by the Buffer's
// finalizer (never earlier, so JavaScript can never see unmapped memory).
#include <node_api.h>

#if defined(__unix__) || defined(__APPLE__)
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void unmap_finalizer(napi_env env, void* data, void* hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static napi_value throw_errno(napi_env env, const char* what, const char* path, int err) {
  char message[1200];
  snprintf(message, sizeof message, "%s %s: %s", what, path, strerror(err));
  napi_throw_error(env, "E_IO", message);
  return NULL;
}

// map(path) maps the whole file; map(path, offset, length) maps bytes [offset, offset + length)
// of it (offset a multiple of the page size, the range inside the file), for files larger than
// one Buffer can be (4 GiB in Node 20), which are read through several such windows.
static napi_value map_file(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char path[1024];
  size_t len = 0;
  if (argc < 1 || napi_get_value_string_utf8(env, argv[0], path, sizeof path, &len) != napi_ok || len >= sizeof path - 1) {
    napi_throw_type_error(env, "E_IO", "map(path): path must be a string under 1023 bytes");
    return NULL;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return throw_errno(env, "cannot open", path, errno);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    return throw_errno(env, "cannot stat", path, err);
  }
  int64_t offset = 0;
  int64_t size64 = (int64_t)st.st_size;
  if (argc >= 3) {
    int64_t length = -1;
    long page = sysconf(_SC_PAGESIZE);
    if (napi_get_value_int64(env, argv[1], &offset) != napi_ok || napi_get_value_int64(env, argv[2], &length) != napi_ok ||
        offset < 0 || length < 0 || offset % page != 0 || offset + length > size64) {
      close(fd);
      napi_throw_range_error(env, "E_IO", "map(path, offset, length): offset must be page-aligned and the range inside the file");
      return NULL;
    }
    size64 = length;
  }
  napi_value result;
  if (size64 == 0) {
    close(fd);
    void* unused;
    napi_create_buffer(env, 0, &unused, &result);
    return result;
  }
  size_t size = (size_t)size64;
  void* addr = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, (off_t)offset);
  int err = errno;
  close(fd);
  if (addr == MAP_FAILED) return throw_errno(env, "cannot map", path, err);
  if (napi_create_external_buffer(env, size, addr, unmap_finalizer, (void*)(uintptr_t)size, &result) != napi_ok) {
    munmap(addr, size);
    napi_throw_error(env, "E_IO", "cannot create an external buffer (external buffers disallowed?)");
    return NULL;
  }
  return result;
}

static napi_value advise(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void* data = NULL;
  size_t length = 0;
  char kind[16] = {0};
  size_t kind_len = 0;
  if (argc < 2 || napi_get_buffer_info(env, argv[0], &data, &length) != napi_ok || length == 0) return NULL;
  napi_get_value_string_utf8(env, argv[1], kind, sizeof kind, &kind_len);
  int advice = MADV_NORMAL;
  if (strcmp(kind, "random") == 0) advice = MADV_RANDOM;
  else if (strcmp(kind, "sequential") == 0) advice = MADV_SEQUENTIAL;
  else if (strcmp(kind, "willneed") == 0) advice = MADV_WILLNEED;
  // The pages leave this process's page tables (and its RSS); a read maps them again from the
  // page cache (or the file). Safe on this read-only shared mapping: nothing is lost.
  else if (strcmp(kind, "dontneed") == 0) advice = MADV_DONTNEED;
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t start = (uintptr_t)data & ~((uintptr_t)page - 1);
  madvise((void*)start, (uintptr_t)data + length - start, advice);
  return NULL;
}
#else
static napi_value map_file(napi_env env, napi_callback_info info) {
  (void)info;
  napi_throw_error(env, "E_IO", "memory mapping is not supported on this platform");
  return NULL;
}
static napi_value advise(napi_env env, napi_callback_info info) {
  (void)env;
  (void)info;
  return NULL;
}
#endif

napi_value omm_lz_init(napi_env env, napi_value exports);

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"map", NULL, map_file, NULL, NULL, NULL, napi_default, NULL},
      {"advise", NULL, advise, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return omm_lz_init(env, exports);
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
