// omm_mmap: maps a whole file read-only into an external Buffer, unmapped by the Buffer's
// finalizer (never earlier, so JavaScript can never see unmapped memory).
#include <node_api.h>

#if defined(__unix__) || defined(__APPLE__)
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

// resident(buffer, offset, length): whether every page under those bytes is in memory (mincore).
// For a shared file mapping Linux reports the page cache when the process owns the file or may
// write it, and otherwise only pages already in this process's page tables: then a page only in
// the page cache reads as absent, which costs its caller one needless fetch, never a wrong answer.
static napi_value resident(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void* base = NULL;
  size_t size = 0;
  int64_t offset = 0;
  int64_t count = 0;
  napi_value result;
  if (argc < 3 || napi_get_buffer_info(env, argv[0], &base, &size) != napi_ok || napi_get_value_int64(env, argv[1], &offset) != napi_ok ||
      napi_get_value_int64(env, argv[2], &count) != napi_ok || offset < 0 || count <= 0 || (uint64_t)(offset + count) > size) {
    napi_get_boolean(env, true, &result);
    return result;
  }
  void* data = (unsigned char*)base + offset;
  size_t length = (size_t)count;
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t start = (uintptr_t)data & ~((uintptr_t)page - 1);
  size_t span = (uintptr_t)data + length - start;
  size_t pages = (span + (size_t)page - 1) / (size_t)page;
  unsigned char small[64];
  unsigned char* vec = pages <= sizeof small ? small : malloc(pages);
  bool all = true;
  if (vec == NULL || mincore((void*)start, span, vec) != 0) all = true;  // cannot tell: read it as ever
  else
    for (size_t i = 0; i < pages; i++)
      if ((vec[i] & 1) == 0) {
        all = false;
        break;
      }
  if (vec != small) free(vec);
  napi_get_boolean(env, all, &result);
  return result;
}

// fetchPages(buffers): a Promise settled once every page under the buffers (views of mappings)
// has been read into memory on a thread of libuv's pool: MADV_WILLNEED on each first, so their
// disk reads run together, then one byte of every page read. The buffers are held (and so stay
// mapped) until it settles.
#define FETCH_MAX 256
typedef struct {
  napi_deferred deferred;
  napi_async_work work;
  size_t count;
  napi_ref refs[FETCH_MAX];
  unsigned char* data[FETCH_MAX];
  size_t length[FETCH_MAX];
  unsigned sum;
} fetch_job;

static void fetch_execute(napi_env env, void* arg) {
  (void)env;
  fetch_job* job = arg;
  long page = sysconf(_SC_PAGESIZE);
  for (size_t i = 0; i < job->count; i++) {
    uintptr_t start = (uintptr_t)job->data[i] & ~((uintptr_t)page - 1);
    madvise((void*)start, (uintptr_t)job->data[i] + job->length[i] - start, MADV_WILLNEED);
  }
  unsigned sum = 0;
  for (size_t i = 0; i < job->count; i++) {
    volatile unsigned char* bytes = job->data[i];
    uintptr_t first = (uintptr_t)bytes & ~((uintptr_t)page - 1);
    for (uintptr_t at = first; at < (uintptr_t)bytes + job->length[i]; at += (uintptr_t)page) {
      uintptr_t p = at < (uintptr_t)bytes ? (uintptr_t)bytes : at;
      sum += *(volatile unsigned char*)p;
    }
  }
  job->sum = sum;
}

static void fetch_complete(napi_env env, napi_status status, void* arg) {
  fetch_job* job = arg;
  for (size_t i = 0; i < job->count; i++) napi_delete_reference(env, job->refs[i]);
  napi_value undefined;
  napi_get_undefined(env, &undefined);
  if (status == napi_ok) napi_resolve_deferred(env, job->deferred, undefined);
  else {
    napi_value message, error;
    napi_create_string_utf8(env, "page fetch cancelled", NAPI_AUTO_LENGTH, &message);
    napi_create_error(env, NULL, message, &error);
    napi_reject_deferred(env, job->deferred, error);
  }
  napi_delete_async_work(env, job->work);
  free(job);
}

static napi_value fetch_pages(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint32_t count = 0;
  bool is_array = false;
  if (argc < 1 || napi_is_array(env, argv[0], &is_array) != napi_ok || !is_array || napi_get_array_length(env, argv[0], &count) != napi_ok ||
      count > FETCH_MAX) {
    napi_throw_type_error(env, "E_IO", "fetchPages(buffers): an array of at most 256 Buffers");
    return NULL;
  }
  fetch_job* job = calloc(1, sizeof *job);
  if (job == NULL) {
    napi_throw_error(env, "E_IO", "out of memory");
    return NULL;
  }
  for (uint32_t i = 0; i < count; i++) {
    napi_value item;
    void* data = NULL;
    size_t length = 0;
    if (napi_get_element(env, argv[0], i, &item) != napi_ok || napi_get_buffer_info(env, item, &data, &length) != napi_ok) continue;
    if (length == 0) continue;
    napi_create_reference(env, item, 1, &job->refs[job->count]);
    job->data[job->count] = data;
    job->length[job->count] = length;
    job->count++;
  }
  napi_value promise, name;
  napi_create_promise(env, &job->deferred, &promise);
  napi_create_string_utf8(env, "omm:fetchPages", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, NULL, name, fetch_execute, fetch_complete, job, &job->work);
  napi_queue_async_work(env, job->work);
  return promise;
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
#if defined(__unix__) || defined(__APPLE__)
      {"resident", NULL, resident, NULL, NULL, NULL, napi_default, NULL},
      {"fetchPages", NULL, fetch_pages, NULL, NULL, NULL, napi_default, NULL},
#endif
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return omm_lz_init(env, exports);
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
